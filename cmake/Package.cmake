# The Debian package: what `cmake --install` puts where, and CPack's settings. ./package runs
# CPack on the one build/ configuration; tests/package checks the result.
include(GNUInstallDirs)

# The project has no public address yet: an assumed one, used by the metainfo, the man page and
# the package's Homepage field. Override with -DROPELAB_HOMEPAGE=...
set(ROPELAB_HOMEPAGE "https://github.com/ropelab/ropelab" CACHE STRING "The project's web address (metainfo, Homepage)")
set(ROPELAB_MAINTAINER "The ropelab authors <ropelab@users.noreply.github.com>" CACHE STRING "The package's Maintainer field")
# The AppStream id follows the home page's reverse DNS (io.github.OWNER.NAME for a GitHub page).
set(ROPELAB_APP_ID "io.github.ropelab.ropelab")
# The date of PROJECT_VERSION's release: bump both together.
set(ROPELAB_RELEASE_DATE "2026-11-24")
set(ROPELAB_RELEASE_DATE_RFC2822 "Tue, 24 Nov 2026 12:00:00 +0000")
# The README's gallery pictures, from the repository's default branch.
set(ROPELAB_SCREENSHOTS "${ROPELAB_HOMEPAGE}/raw/main/docs/screenshots")

set(pkg_src ${PROJECT_SOURCE_DIR}/packaging)
set(pkg_out ${CMAKE_BINARY_DIR}/packaging)
configure_file(${pkg_src}/ropelab.metainfo.xml.in ${pkg_out}/${ROPELAB_APP_ID}.metainfo.xml @ONLY)
configure_file(${pkg_src}/copyright.in ${pkg_out}/copyright @ONLY)
configure_file(${pkg_src}/ropelab.1.in ${pkg_out}/ropelab.1 @ONLY)
configure_file(${pkg_src}/changelog.in ${pkg_out}/changelog @ONLY)

# Debian compresses manuals and changelogs with gzip -9n (no name, no time stamp: reproducible).
find_program(GZIP_EXECUTABLE gzip REQUIRED)
foreach(doc ropelab.1 changelog)
    add_custom_command(OUTPUT ${pkg_out}/${doc}.gz
        COMMAND ${GZIP_EXECUTABLE} -9nkf ${pkg_out}/${doc}
        DEPENDS ${pkg_out}/${doc}
        COMMENT "Compressing ${doc}"
        VERBATIM)
    list(APPEND pkg_compressed ${pkg_out}/${doc}.gz)
endforeach()
add_custom_target(ropelab_package_docs ALL DEPENDS ${pkg_compressed})

install(TARGETS ropelab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${pkg_src}/ropelab.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${pkg_src}/ropelab-mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME ropelab.xml)
install(FILES ${pkg_out}/${ROPELAB_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${pkg_src}/ropelab.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${pkg_out}/ropelab.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${pkg_src}/ropelab.bash-completion DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME ropelab)
install(FILES ${pkg_out}/copyright DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ropelab)
# A native package (its version has no Debian revision): the changelog is changelog.gz.
install(FILES ${pkg_out}/changelog.gz DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ropelab)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ropelab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CONTACT "${ROPELAB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ROPELAB_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${ROPELAB_HOMEPAGE}")
# Libraries the binary links: found by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libepoxy opens libEGL and libGL at run time (dlopen), which dpkg-shlibdeps cannot see.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libegl1, libgl1")
# ffmpeg encodes render's GIF and MP4 (it is run as a program); Mesa's drivers give the window
# and headless rendering a GL implementation on machines without a vendor driver.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "ffmpeg, libegl-mesa0, libgl1-mesa-dri")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "lab for Rotary Position Embeddings (RoPE)")
# The long description; CPack indents it and writes its empty line as " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "ropelab shows what Rotary Position Embeddings do inside a transformer's
attention: how each pair of a query and a key vector turns with position,
how the attention score changes with the distance between two tokens, and
what context-extension rules (NTK, YaRN, Llama 3, LongRoPE) change.

The interactive lab has eleven live views, reads a model's Hugging Face
config.json or starts from presets, compares models side by side, and
presents lessons for teaching. Its command line prints the exact numbers
behind every view and renders pictures, videos and PDF figures.")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
include(CPack)
