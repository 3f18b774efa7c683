// ropelab in a browser: the same lab, views and window code as the desktop app, drawn into the
// page's canvas with WebGL2 and computed on the CPU device (WebGL2 has no compute shaders). The
// browser runs the frames (requestAnimationFrame); the address bar holds the state as a share
// link, so a link opens the exact lab.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cstdio>
#include <memory>
#include <string>

#include "core/cpu_device.h"
#include "core/error.h"
#include "core/presets.h"
#include "lab/lab.h"
#include "page.h"
#include "state/session.h"
#include "ui/widgets.h"
#include "views/lab_view.h"
#include "window.h"

namespace ropelab {
namespace {

// What the page keeps between the browser's frames.
struct Page {
    std::unique_ptr<Window> window;
    std::unique_ptr<CpuDevice> device;
    std::unique_ptr<Lab> lab;
    std::unique_ptr<views::LabView> view;
    double last_ms = 0.0;
    long frames = 0;
    std::string shown_share;  // the share string in the address bar
    std::string copied_share;  // the lab's last "Copy share link" already handed to the clipboard
};

Page* g_page = nullptr;

// The textbook model at the page's scale: the desktop's defaults without a command line.
LabParams default_params() {
    LabParams p;
    const LoadedConfig loaded = load_preset("textbook", "");
    p.model = loaded.config;
    p.layer_type = loaded.layer_type;
    p.preset = "textbook";
    return p;
}

// The address bar follows the state a few times a second (a share string costs a JSON dump).
void follow_state_in_url(Page& page) {
    if (page.frames % 15 != 0) return;
    const std::string share = share_string(page.lab->session());
    if (share == page.shown_share) return;
    page.shown_share = share;
    web::show_share_in_url(share);
}

// The lab's "Copy share link" (lab::cmd::CopyShareString) gives a link on the web.
void follow_share_request(Page& page) {
    const std::string& text = page.lab->status().share_text;
    if (text == page.copied_share) return;
    page.copied_share = text;
    if (page.frames > 1) web::copy_to_clipboard(web::share_link(text));
}

void frame(void*) {
    Page& page = *g_page;
    web::fit_canvas(*page.window);
    const double now = emscripten_get_now();
    const double seconds = page.last_ms > 0.0 ? (now - page.last_ms) / 1000.0 : 1.0 / 60.0;
    page.last_ms = now;
    page.window->frame(page.lab->params(), [&](const lab::Input& input) { page.view->frame(seconds, input); });
    ++page.frames;
    EM_ASM({ Module.ropelabFrames = $0; }, static_cast<int>(page.frames));
    follow_state_in_url(page);
    follow_share_request(page);
}

}  // namespace
}  // namespace ropelab

// What the page's JavaScript may ask (index.html: Module.ropelab(what)): the state as session
// JSON, its share string, and the last frame's widgets with their places (the browser tests
// click there). The text lives until the next call.
extern "C" EMSCRIPTEN_KEEPALIVE const char* ropelab_query(const char* what) {
    using namespace ropelab;
    static std::string out;
    const std::string asked = what ? what : "";
    if (!g_page) {
        out = "";
    } else if (asked == "state") {
        out = session_to_json(g_page->lab->session());
    } else if (asked == "share") {
        out = share_string(g_page->lab->session());
    } else if (asked == "widgets") {
        out = ui::widgets_json(ui::log().this_frame());
    } else {
        out = "";
    }
    return out.c_str();
}

// A file the person chose in the browser's file chooser, already in the page's file system:
// opened as a drop on the canvas is (the lab tells a session, lesson or config apart).
extern "C" EMSCRIPTEN_KEEPALIVE void ropelab_open_file(const char* path) {
    if (ropelab::g_page && path) ropelab::g_page->window->send_drop(path);
}

int main() {
    using namespace ropelab;
    WindowOptions options;
    std::tie(options.width, options.height) = web::page_size();
    options.title = "ropelab";
    std::string why;
    auto page = std::make_unique<Page>();
    page->window = Window::open(options, why);
    if (!page->window) {
        std::fprintf(stderr, "ropelab: error: %s\n", why.c_str());
        return 1;
    }
    page->device = std::make_unique<CpuDevice>("WebGL2 has no compute shaders");
    page->lab = std::make_unique<Lab>(*page->device, default_params());
    page->view = std::make_unique<views::LabView>(*page->lab);
    // A share link: the state it carries, through the lab's one door (a bad string is said in
    // the lab's notice, and the defaults stay).
    if (const std::string fragment = web::url_fragment(); fragment.rfind("s=", 0) == 0) {
        page->view->send(lab::cmd::OpenShareString{fragment.substr(2)});
    }
    g_page = page.release();
    emscripten_set_main_loop_arg(frame, nullptr, 0, true);
    return 0;
}
