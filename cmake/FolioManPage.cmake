# Script mode (cmake -P): writes a man page (OUTPUT) from a program's own --help texts, so the
# manual never drifts from what the program says. Each HELP_i is a ';'-separated argument list
# run as PROGRAM's arguments; its output becomes section TITLE_i, kept verbatim in no-fill mode.
#   -DPROGRAM= -DOUTPUT= -DNAME=folio -DSUMMARY=... -DVERSION=... -DCOUNT=n -DTITLE_0= -DHELP_0=...
# The date honours SOURCE_DATE_EPOCH, as reproducible builds ask.
function(roff_escape text out)
    string(REPLACE "\\" "\\e" text "${text}")
    # A line that starts with '.' or '\'' would be a request; \& makes it text.
    string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(TOUPPER "${NAME}" upper)
string(TIMESTAMP date "%Y-%m-%d" UTC)
set(page ".\\\" Generated from ${NAME} --help by cmake/FolioManPage.cmake; do not edit.\n")
string(APPEND page ".TH ${upper} 1 \"${date}\" \"${NAME} ${VERSION}\" \"User Commands\"\n")
string(APPEND page ".SH NAME\n${NAME} \\- ${SUMMARY}\n")
math(EXPR last "${COUNT} - 1")
foreach(i RANGE ${last})
    execute_process(COMMAND "${PROGRAM}" ${HELP_${i}}
                    OUTPUT_VARIABLE text RESULT_VARIABLE result ERROR_VARIABLE err)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "${PROGRAM} ${HELP_${i}} failed (${result}): ${err}")
    endif()
    # The program's own path in a usage line reads as its name in a manual.
    string(REPLACE "${PROGRAM}" "${NAME}" text "${text}")
    string(STRIP "${text}" text)
    roff_escape("${text}" text)
    string(APPEND page ".SH ${TITLE_${i}}\n.nf\n${text}\n.fi\n")
endforeach()
if(SEE_ALSO)
    string(APPEND page ".SH SEE ALSO\n${SEE_ALSO}\n")
endif()
file(WRITE "${OUTPUT}" "${page}")
