cmake_minimum_required(VERSION 3.25)
# The house rules docs/architecture.md states, checked (issue 28): run as a test, it fails on a
# file that breaks one. SOURCE_DIR is the repository.
#  1. Widgets show; they do not speak the protocol: nothing under ui/ includes mcpclient.h,
#     invocation.h, rpccall.h, authorizer.h or oauthflow.h (models/ reads them for the widgets:
#     ServerSession, InvocationRun, SignInProgress). allowed_in_ui is empty and stays so.
#  2. Nothing outside net/ (its tests included) asks which Kind a server config is or sets one:
#     ServerConfig says what it can do, and ServerConfig::process() and remote() make one.
#  3. Tests wait for events, not for time: no qWait( under tests/.
set(protocol_headers "mcpclient|invocation|rpccall|authorizer|oauthflow")
set(allowed_in_ui "")

set(broken "")
# Adds "<file>: <rule>: <the lines>" to broken for each of files with a line that matches regex.
function(flag_lines files regex rule)
    foreach(f IN LISTS files)
        file(STRINGS "${SOURCE_DIR}/${f}" hits REGEX "${regex}")
        if(hits)
            list(APPEND broken "${f}: ${rule}: ${hits}")
        endif()
    endforeach()
    set(broken "${broken}" PARENT_SCOPE)
endfunction()

file(GLOB ui_files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/ui/*.h" "${SOURCE_DIR}/ui/*.cpp")
if(allowed_in_ui)
    list(REMOVE_ITEM ui_files ${allowed_in_ui})
endif()
flag_lines("${ui_files}" "#include \"(${protocol_headers})\\.h\"" "a widget includes a protocol header")

file(GLOB_RECURSE outside_net RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/app/*.cpp" "${SOURCE_DIR}/app/*.h" "${SOURCE_DIR}/models/*.cpp" "${SOURCE_DIR}/models/*.h"
     "${SOURCE_DIR}/ui/*.cpp" "${SOURCE_DIR}/ui/*.h")
file(GLOB_RECURSE test_files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.h")
list(FILTER test_files EXCLUDE REGEX "^tests/peers/")
flag_lines("${outside_net};${test_files}" "Kind::(Http|Stdio)([^A-Za-z]|$)"
           "asks for or sets a ServerConfig Kind outside net/")

flag_lines("${test_files}" "qWait\\(" "waits for time (qWait): wait for the event (QTRY_*, qWaitFor, QSignalSpy::wait)")

# Each allowed file must still need it: an exception that is no longer used is taken off the list.
foreach(f IN LISTS allowed_in_ui)
    file(STRINGS "${SOURCE_DIR}/${f}" hits REGEX "#include \"(${protocol_headers})\\.h\"")
    if(NOT hits)
        list(APPEND broken "${f} no longer includes a protocol header: take it off allowed_in_ui")
    endif()
endforeach()

if(broken)
    list(JOIN broken "\n" text)
    message(FATAL_ERROR "The layering rules (docs/architecture.md, 'The layers') are broken:\n${text}")
endif()
message(STATUS "layering: ok")
