// ropelab in a browser: the same lab, views and window code as the desktop app, drawn into the
// page's canvas with WebGL2 and computed on the CPU device (WebGL2 has no compute shaders). The
// browser runs the frames (requestAnimationFrame); the address bar holds the state as a share
// link, so a link opens the exact lab.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/cpu_device.h"
#include "core/error.h"
#include "core/presets.h"
#include "lab/lab.h"
#include "downloads.h"
#include "page.h"
#include "ui/file_dialog.h"
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
    web::Downloads downloads;
    int audience_asked = 0;  // the lab's "Present with notes" requests already answered
    // The browser's own timing (performance.now): when the first frame was drawn after the page
    // began loading, and each frame's work and the interval between frames.
    double first_frame_ms = -1.0;
    std::vector<double> work_ms, interval_ms, build_ms, render_ms;
};

// Mean and 95th percentile of the last frames' times, as JSON for ropelab_query("timing").
std::string timing_json(const Page& page) {
    const auto summary = [](std::vector<double> v) {
        if (v.empty()) return std::pair{0.0, 0.0};
        const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
        std::sort(v.begin(), v.end());
        return std::pair{mean, v[static_cast<std::size_t>(0.95 * static_cast<double>(v.size() - 1))]};
    };
    const auto [work, work95] = summary(page.work_ms);
    const auto [interval, interval95] = summary(page.interval_ms);
    return fmt::format(R"({{"frames": {}, "first_frame_ms": {:.1f}, "mean_work_ms": {:.2f}, "p95_work_ms": {:.2f}, )"
                       R"("mean_interval_ms": {:.2f}, "p95_interval_ms": {:.2f}, "mean_build_ms": {:.2f}, "mean_render_ms": {:.2f}}})",
                       page.frames, page.first_frame_ms, work, work95, interval, interval95, summary(page.build_ms).first,
                       summary(page.render_ms).first);
}

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

// Presenting with notes needs a second window for the audience; a page has one canvas. The lab
// presents in it instead (Present: full-screen canvas, arrows step the scenes).
void refuse_second_window(Page& page) {
    const int asked = page.lab->status().audience_asked;
    if (asked == page.audience_asked) return;
    page.audience_asked = asked;
    page.view->send(lab::cmd::Refuse{.control = "presenting with notes",
                                     .why = "a browser page has one canvas: use Present (full screen, arrows step the scenes)"});
}

void frame(void*) {
    Page& page = *g_page;
    web::fit_canvas(*page.window);
    const double now = emscripten_get_now();
    const double seconds = page.last_ms > 0.0 ? (now - page.last_ms) / 1000.0 : 1.0 / 60.0;
    page.last_ms = now;
    page.downloads.before_frame();
    page.window->frame(page.lab->params(), [&](const lab::Input& input) { page.view->frame(seconds, input); });
    page.downloads.after_frame(*page.window, *page.view);
    refuse_second_window(page);
    const double done = emscripten_get_now();
    if (page.first_frame_ms < 0.0) page.first_frame_ms = done;  // performance.now(): since the page began loading
    // The last 600 frames (10 s at 60 Hz).
    if (page.work_ms.size() == 600) page.work_ms.erase(page.work_ms.begin());
    for (std::vector<double>* v : {&page.interval_ms, &page.build_ms, &page.render_ms}) {
        if (v->size() == 600) v->erase(v->begin());
    }
    page.build_ms.push_back(page.window->last_build_ms());
    page.render_ms.push_back(page.window->last_render_ms());
    page.work_ms.push_back(done - now);
    if (page.frames > 0) page.interval_ms.push_back(seconds * 1000.0);
    ++page.frames;
    EM_ASM({ Module.ropelabFrames = $0; }, static_cast<int>(page.frames));
    follow_state_in_url(page);
    follow_share_request(page);
}

}  // namespace
}  // namespace ropelab

// What the page's JavaScript may ask (index.html: Module.ropelab(what)): the state as session
// JSON, its share string, the frames' timing, and the last frame's widgets with their places (the browser tests
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
    } else if (asked == "timing") {
        out = timing_json(*g_page);
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
    // Saves and exports go to the browser's downloads; Open asks the browser's file chooser.
    setenv("ROPELAB_SCREENSHOT_DIR", web::kDownloads, 1);  // F12
    ui::use_host_files({.choose = [](const std::vector<std::string>& extensions) {
                            std::string accept;
                            for (const std::string& e : extensions) accept += (accept.empty() ? "" : ",") + e;
                            web::choose_file(accept);
                        },
                        .save_folder = web::kDownloads});
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
