# Installing and packaging: `cmake --install` lays out a desktop application under the prefix,
# `cpack -G DEB` (in the build directory) turns the same tree into a Debian package whose
# Depends come from dpkg-shlibdeps. tests/package/check-package.sh proves both in the test run.
include(GNUInstallDirs)

# The reverse-DNS id of the desktop file, the icon and the AppStream component; the window names
# its desktop file with it (QGuiApplication::desktopFileName).
set(FOLIO_APP_ID "dev.folio.Folio")
target_compile_definitions(folio PRIVATE FOLIO_APP_ID="${FOLIO_APP_ID}")
set(FOLIO_HOMEPAGE_URL "https://folio.dev" CACHE STRING "The project's home page, for AppStream and the package")
set(FOLIO_SCREENSHOT_URL "${FOLIO_HOMEPAGE_URL}/screenshots" CACHE STRING
    "Where docs/screenshots/*.png are published, for the AppStream screenshots")
string(TIMESTAMP FOLIO_RELEASE_DATE "%Y-%m-%d" UTC)

install(TARGETS folio folio-demo-server RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/resources/${FOLIO_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/folio.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps RENAME ${FOLIO_APP_ID}.svg)
configure_file(${PROJECT_SOURCE_DIR}/resources/${FOLIO_APP_ID}.metainfo.xml.in
               ${PROJECT_BINARY_DIR}/${FOLIO_APP_ID}.metainfo.xml @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/${FOLIO_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# Man pages from the programs' own --help texts (cmake/FolioManPage.cmake), gzipped as Debian wants.
set(FOLIO_MAN_DIR ${PROJECT_BINARY_DIR}/man)
add_custom_command(
    OUTPUT ${FOLIO_MAN_DIR}/folio.1
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:folio> -DOUTPUT=${FOLIO_MAN_DIR}/folio.1
            -DNAME=folio "-DSUMMARY=inspect how an MCP server pages its lists" -DVERSION=${PROJECT_VERSION}
            -DCOUNT=8
            -DTITLE_0=DESCRIPTION -DHELP_0=--help
            "-DTITLE_1=FOLIO LIST" "-DHELP_1=help;list"
            "-DTITLE_2=FOLIO AUDIT" "-DHELP_2=help;audit"
            "-DTITLE_3=FOLIO SNAPSHOT" "-DHELP_3=help;snapshot"
            "-DTITLE_4=FOLIO DIFF" "-DHELP_4=help;diff"
            "-DTITLE_5=FOLIO DECODE-CURSOR" "-DHELP_5=help;decode-cursor"
            "-DTITLE_6=FOLIO TASKS" "-DHELP_6=help;tasks"
            "-DTITLE_7=VERSION" -DHELP_7=--version
            "-DSEE_ALSO=.BR folio-demo-server (1)"
            -P ${PROJECT_SOURCE_DIR}/cmake/FolioManPage.cmake
    DEPENDS folio ${PROJECT_SOURCE_DIR}/cmake/FolioManPage.cmake
    COMMENT "Writing the folio(1) man page from folio --help"
    VERBATIM)
add_custom_command(
    OUTPUT ${FOLIO_MAN_DIR}/folio-demo-server.1
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:folio-demo-server>
            -DOUTPUT=${FOLIO_MAN_DIR}/folio-demo-server.1 -DNAME=folio-demo-server
            "-DSUMMARY=an MCP server that pages well or badly on cue, for Folio's demos and tests"
            -DVERSION=${PROJECT_VERSION} -DCOUNT=1 -DTITLE_0=DESCRIPTION -DHELP_0=--help
            "-DSEE_ALSO=.BR folio (1)"
            -P ${PROJECT_SOURCE_DIR}/cmake/FolioManPage.cmake
    DEPENDS folio-demo-server ${PROJECT_SOURCE_DIR}/cmake/FolioManPage.cmake
    COMMENT "Writing the folio-demo-server(1) man page from its --help"
    VERBATIM)
foreach(page folio.1 folio-demo-server.1)
    add_custom_command(
        OUTPUT ${FOLIO_MAN_DIR}/${page}.gz
        COMMAND gzip -9 -n -f -k ${page}
        DEPENDS ${FOLIO_MAN_DIR}/${page}
        WORKING_DIRECTORY ${FOLIO_MAN_DIR}
        VERBATIM)
    list(APPEND FOLIO_MAN_PAGES ${FOLIO_MAN_DIR}/${page}.gz)
endforeach()
add_custom_target(folio_man ALL DEPENDS ${FOLIO_MAN_PAGES})
install(FILES ${FOLIO_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The Debian package. Depends: what dpkg-shlibdeps reads off the binaries (Qt, QtKeychain,
# simdjson...). A Secret Service (gnome-keyring) keeps tokens; without one Folio still runs and
# says the keychain is unavailable, so it is a recommendation.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME folio)
set(CPACK_PACKAGE_VENDOR "The Folio developers")
set(CPACK_PACKAGE_CONTACT "The Folio developers <folio@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "inspector for how MCP servers page their lists")
set(CPACK_PACKAGE_DESCRIPTION
    "Folio connects to an MCP (Model Context Protocol) server over stdio or HTTP and shows each of its lists as a table that follows the cursors page by page, with the cursors, cache hints, TTLs and paging errors of every page. It includes folio-demo-server, a server that pages well or badly on cue.")
set(CPACK_PACKAGE_HOMEPAGE_URL ${FOLIO_HOMEPAGE_URL})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# A plugin shlibdeps cannot see: the window icon is an SVG, drawn by Qt's SVG icon engine.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnome-keyring")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_PACKAGE_CHECKSUM SHA256)
include(CPack)
