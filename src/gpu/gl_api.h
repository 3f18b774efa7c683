#pragma once
// The GL declarations for the window code: desktop OpenGL 4.x through epoxy, or OpenGL ES 3.0
// (WebGL2) in the browser, where emscripten provides them. src/gpu and the window include GL
// only through this header.
#ifdef __EMSCRIPTEN__
#include <GLES3/gl3.h>
#else
#include <epoxy/gl.h>
#endif
