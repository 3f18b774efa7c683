/* The stb implementations Debian's libstb.so carries on the desktop, for the web build: the
 * screen's font metrics (plot/screen.cpp) and Dear ImGui's atlas (built as Debian builds it,
 * with the system stb). */
#define STB_TRUETYPE_IMPLEMENTATION
#define STB_RECT_PACK_IMPLEMENTATION
#include <stb_rect_pack.h>
#include <stb_truetype.h>
