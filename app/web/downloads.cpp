#include "downloads.h"

#include <imgui.h>

#include <filesystem>
#include <system_error>

#include "core/atomic_file.h"
#include "export/data.h"
#include "page.h"
#include "plot/svg.h"

namespace ropelab::web {

namespace fs = std::filesystem;

namespace {

bool ends_with_any(const std::string& path, std::initializer_list<const char*> endings) {
    for (const char* e : endings) {
        if (path.ends_with(e)) return true;
    }
    return false;
}

// Each finished file in /downloads goes to the browser, then leaves the page's memory. The
// folder is the page's own (made here), never a folder of the person's.
void hand_over_finished() {
    std::error_code ec;
    if (!fs::is_directory(kDownloads, ec)) return;
    for (const fs::directory_entry& entry : fs::directory_iterator(kDownloads, ec)) {
        const std::string name = entry.path().filename().string();
        if (!entry.is_regular_file(ec) || name.ends_with(".partial")) continue;
        offer_download(entry.path().string());
        fs::remove(entry.path(), ec);
    }
}

}  // namespace

void Downloads::before_frame() {
    if (!svg_path_.empty() && !capture_) capture_ = std::make_unique<draw::FrameCapture>();
}

void Downloads::after_frame(Window& window, views::LabView& view) {
    const Lab& lab = view.lab();
    lab::ExportStatus status = lab.status().export_status;
    const lab::ExportStatus before = status;
    if (capture_) {
        const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
        const draw::Color background = ImGui::ColorConvertFloat4ToU32(ImVec4(bg.x, bg.y, bg.z, 1.0f));
        // Textures (the heatmaps) cannot be read back from WebGL2 here: the figure leaves them out.
        const draw::Figure figure = capture_->finish(*ImGui::GetDrawData(), [](ImTextureID) { return draw::TexturePixels{}; }, background);
        std::string error;
        const bool saved = write_file_atomically(svg_path_, draw::to_svg(figure), error);
        status.message = saved ? "downloaded " + fs::path(svg_path_).filename().string() : "not saved: " + error;
        capture_.reset();
        svg_path_.clear();
    }
    if (lab.status().exports_asked > started_) {
        started_ = lab.status().exports_asked;
        start_export(window, lab, status);
    }
    if (!(status == before)) view.send(lab::cmd::ExportProgress{status});
    hand_over_finished();
}

void Downloads::start_export(Window& window, const Lab& lab, lab::ExportStatus& status) {
    std::error_code ec;
    fs::create_directories(kDownloads, ec);
    const lab::ExportSpec& spec = lab.status().export_spec;
    const std::string name = fs::path(spec.path).filename().string();
    const std::string path = std::string(kDownloads) + "/" + (name.empty() ? "ropelab-export.png" : name);
    status.message.clear();
    if (ends_with_any(path, {".csv", ".json"})) {
        const std::string error = export_view_data(path, spec.view, lab.params(), lab.compute().data());
        status.message = error.empty() ? "downloaded " + name : "not saved: " + error;
    } else if (path.ends_with(".png")) {
        // The canvas as it was just drawn (WebGL keeps it until this task returns to the browser).
        const auto [width, height] = window.framebuffer_size();
        std::string error;
        status.message = save_framebuffer_png(path, width, height, error) ? "downloaded " + name + " (the canvas as shown)"
                                                                          : "not saved: " + error;
    } else if (path.ends_with(".svg")) {
        svg_path_ = path;  // captured in the next frame
    } else {
        status.message = "not saved: the browser lab saves .png, .svg, .csv and .json; animations (.gif, .mp4, "
                         "PNG sequences) and PDF come from the desktop app (ropelab render)";
    }
}

}  // namespace ropelab::web
