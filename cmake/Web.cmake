# The web target (./web): the same libraries built with emscripten for WebAssembly + WebGL2.
#
# Every dependency still comes from Debian: header-only libraries from the installed -dev
# packages, and the two that need compiling — Dear ImGui 1.86 (libimgui-dev ships an x86 library
# only) and zlib (PNG's deflate) — from Debian's own source packages, which ./web unpacks with
# `apt-get source` into ROPELAB_WEB_SOURCES. The targets below take the names find_package() gives
# on the desktop (fmt::fmt, PkgConfig::imgui, ZLIB::ZLIB …), so src/*/CMakeLists.txt stay one
# description of the lab for both builds.

set(ROPELAB_WEB_SOURCES "" CACHE PATH "Where ./web unpacked Debian's imgui and zlib sources")
file(GLOB imgui_dir LIST_DIRECTORIES true "${ROPELAB_WEB_SOURCES}/imgui-1.86*")
file(GLOB zlib_dir LIST_DIRECTORIES true "${ROPELAB_WEB_SOURCES}/zlib-1.2.*")
if(NOT imgui_dir OR NOT zlib_dir)
    message(FATAL_ERROR "imgui 1.86 and zlib sources not found in '${ROPELAB_WEB_SOURCES}': build the web target with ./web")
endif()
enable_language(C)

# Debian's header-only libraries, through links: adding /usr/include itself would put the host's
# C library headers before emscripten's.
set(debian_headers ${CMAKE_BINARY_DIR}/debian-headers)
foreach(dir nlohmann fmt)
    if(NOT EXISTS ${debian_headers}/${dir})
        file(MAKE_DIRECTORY ${debian_headers})
        file(CREATE_LINK /usr/include/${dir} ${debian_headers}/${dir} SYMBOLIC)
    endif()
endforeach()

add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
target_include_directories(nlohmann_json::nlohmann_json INTERFACE ${debian_headers})
add_library(fmt::fmt INTERFACE IMPORTED)
target_include_directories(fmt::fmt INTERFACE ${debian_headers})
target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY)
# No threads on the page (they need cross-origin isolation headers from the server): the lab's
# workers fail to start, and each one's work runs on the caller (core/parallel.h).
add_library(Threads::Threads INTERFACE IMPORTED)
add_library(glfw INTERFACE IMPORTED)  # emscripten's GLFW 3 on the canvas
target_link_options(glfw INTERFACE -sUSE_GLFW=3)

# stb: Debian's headers (only stb headers live in /usr/include/stb); the implementations
# libstb.so carries on the desktop, compiled here.
add_library(ropelab_web_stb STATIC ${PROJECT_SOURCE_DIR}/app/web/stb_implementation.c)
target_include_directories(ropelab_web_stb PUBLIC /usr/include/stb)
add_library(PkgConfig::stb ALIAS ropelab_web_stb)

# Dear ImGui 1.86 as Debian builds it (imgui/debian/patches: the Makefile): stb from the system.
add_library(ropelab_web_imgui STATIC
    ${imgui_dir}/imgui.cpp ${imgui_dir}/imgui_draw.cpp ${imgui_dir}/imgui_tables.cpp ${imgui_dir}/imgui_widgets.cpp
    ${imgui_dir}/misc/cpp/imgui_stdlib.cpp
    ${imgui_dir}/backends/imgui_impl_glfw.cpp ${imgui_dir}/backends/imgui_impl_opengl3.cpp)
target_include_directories(ropelab_web_imgui PUBLIC ${imgui_dir} ${imgui_dir}/misc/cpp)
target_compile_definitions(ropelab_web_imgui PUBLIC
    IMGUI_DISABLE_STB_RECT_PACK_IMPLEMENTATION "IMGUI_STB_RECT_PACK_FILENAME=<stb_rect_pack.h>"
    IMGUI_DISABLE_STB_TRUETYPE_IMPLEMENTATION "IMGUI_STB_TRUETYPE_FILENAME=<stb_truetype.h>")
target_compile_options(ropelab_web_imgui PRIVATE -w -sUSE_GLFW=3)
target_link_libraries(ropelab_web_imgui PUBLIC ropelab_web_stb)
add_library(PkgConfig::imgui ALIAS ropelab_web_imgui)

set(zlib_sources adler32 compress crc32 deflate inffast inflate inftrees trees uncompr zutil)
list(TRANSFORM zlib_sources PREPEND ${zlib_dir}/)
list(TRANSFORM zlib_sources APPEND .c)
add_library(ropelab_web_zlib STATIC ${zlib_sources})
target_include_directories(ropelab_web_zlib PUBLIC ${zlib_dir})
target_compile_options(ropelab_web_zlib PRIVATE -w)
add_library(ZLIB::ZLIB ALIAS ropelab_web_zlib)

# C++ exceptions carry the lab's errors (InputError, bad_alloc): caught, not aborts.
add_compile_options(-fexceptions "SHELL:-include ${PROJECT_SOURCE_DIR}/app/web/libcxx_compat.h")
add_link_options(-fexceptions)
