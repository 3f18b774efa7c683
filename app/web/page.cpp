#include "page.h"

#include <emscripten.h>

#include <cstdlib>

namespace ropelab::web {

namespace {

// JS strings into C++: the page allocates UTF-8 with the module's malloc, we free it.
EM_JS(char*, js_fragment, (), {
    const text = decodeURIComponent(location.hash.replace(/^#/, ""));
    const bytes = lengthBytesUTF8(text) + 1;
    const out = _malloc(bytes);
    stringToUTF8(text, out, bytes);
    return out;
});

EM_JS(char*, js_link, (const char* share), {
    const text = location.origin + location.pathname + location.search + "#s=" + UTF8ToString(share);
    const bytes = lengthBytesUTF8(text) + 1;
    const out = _malloc(bytes);
    stringToUTF8(text, out, bytes);
    return out;
});

EM_JS(void, js_show_share, (const char* share), {
    history.replaceState(null, "", "#s=" + UTF8ToString(share));
});

EM_JS(void, js_copy, (const char* text), {
    const value = UTF8ToString(text);
    if (navigator.clipboard) navigator.clipboard.writeText(value).catch(() => {});
});

EM_JS(void, js_download, (const char* path), {
    const name = UTF8ToString(path);
    const bytes = FS.readFile(name);
    const types = {png: "image/png", svg: "image/svg+xml", csv: "text/csv", json: "application/json"};
    const extension = name.split(".").pop().toLowerCase();
    const blob = new Blob([bytes], {type: types[extension] || "application/octet-stream"});
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name.split("/").pop();
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    if (Module.onDownload) Module.onDownload(a.download, bytes.length);
});

EM_JS(void, js_choose, (const char* accept), {
    if (Module.chooseFile) Module.chooseFile(UTF8ToString(accept));
});

std::string taken(char* text) {
    std::string out = text ? text : "";
    std::free(text);
    return out;
}

}  // namespace

std::string url_fragment() { return taken(js_fragment()); }
void show_share_in_url(const std::string& share) { js_show_share(share.c_str()); }
std::string share_link(const std::string& share) { return taken(js_link(share.c_str())); }
void copy_to_clipboard(const std::string& text) { js_copy(text.c_str()); }
void offer_download(const std::string& path) { js_download(path.c_str()); }
void choose_file(const std::string& accept) { js_choose(accept.c_str()); }

}  // namespace ropelab::web

#include "window.h"

namespace ropelab::web {

std::pair<int, int> page_size() {
    return {EM_ASM_INT({ return window.innerWidth; }), EM_ASM_INT({ return window.innerHeight; })};
}

void fit_canvas(Window& window) {
    const auto [width, height] = page_size();
    if (std::pair{width, height} != window.window_size()) window.set_window_size(width, height);
}

}  // namespace ropelab::web
