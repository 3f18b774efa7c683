#include "views/panel/panel.h"

#include <array>

#include <fmt/format.h>

#include "state/schema.h"

namespace ropelab::controls {

namespace {

// "Whole window", then the views' own titles.
std::array<const char*, kViewCount + 1> export_view_names() {
    std::array<const char*, kViewCount + 1> names{"Whole window"};
    for (int v = 0; v < kViewCount; ++v) names[static_cast<std::size_t>(v) + 1] = view_title(static_cast<View>(v)).data();
    return names;
}
constexpr const char* kSweepNames[] = {"position", "distance", "θ (log)", "factor (log)"};

// "frame k / N · F frames/s · T s left" across the panel's width (the rate and the time left
// once the renderer has said them), shortened step by step where a large scale leaves the bar
// too little room; in the widget log as a "progress" item whose value is that text, and checked
// to fit the bar.
void progress_bar(const lab::ExportStatus& status) {
    const float room = ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemInnerSpacing.x;
    std::string label = "starting";
    if (status.total_frames > 0 && status.frames_per_second > 0) {
        const int k = status.done_frames, n = status.total_frames;
        const double rate = status.frames_per_second, left = status.eta_seconds;
        for (std::string candidate : {fmt::format("frame {} / {} · {:.1f} frames/s · {:.0f} s left", k, n, rate, left),
                                      fmt::format("{} / {} · {:.1f} frames/s · {:.0f} s left", k, n, rate, left),
                                      fmt::format("{} / {} · {:.0f}/s · {:.0f} s", k, n, rate, left)}) {
            label = std::move(candidate);
            if (ImGui::CalcTextSize(label.c_str()).x <= room) break;
        }
    } else if (status.total_frames > 0) {
        label = fmt::format("frame {} / {}", status.done_frames, status.total_frames);
    }
    // Filled in the headers' colour, which the themes pair with their text colour (ImGui's
    // histogram yellow under white text is hard to read).
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImGui::GetStyleColorVec4(ImGuiCol_HeaderActive));
    ImGui::ProgressBar(status.progress(), ImVec2(-FLT_MIN, 0), label.c_str());
    ImGui::PopStyleColor();
    ui::log().record("Export progress", "progress", label);
    tip("Frames rendered and encoded so far (a long GIF counts both its passes), the rate, and the time left at that rate");
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    const float text_width = ImGui::CalcTextSize(label.c_str()).x, inner = ImGui::GetStyle().ItemInnerSpacing.x;
    ui::log().check_fits(label, ImVec2(max.x - inner - text_width, min.y), ImVec2(max.x - inner, max.y),
                         ImVec4(min.x, min.y, max.x, max.y));
}

}  // namespace

void export_section(const Lab& lab, PanelState& panel, lab::Commands& out) {
    lab::ExportSpec& e = panel.export_spec;
    const lab::ExportStatus& status = lab.status().export_status;
    // While an export runs its settings stay in view, greyed, and only the last row changes:
    // nothing jumps under the pointer when it finishes.
    ImGui::BeginDisabled(status.running);
    ui::input_text("Export file", &e.path, ui::kMaxPathChars);
    tip(".png one image, .svg/.pdf a vector figure (text stays text), .gif/.mp4 an animation, DIR/ a PNG sequence, "
        ".csv/.json the view's data");
    browse_button("export", "Browse export file", e.path,
                  {.title = "Export to", .mode = ui::FileDialogMode::Save,
                   .extensions = {".png", ".svg", ".pdf", ".gif", ".mp4", ".csv", ".json"}, .start = {}, .recent = {}}, lab);
    if (const auto path = browsed("export")) e.path = *path;  // the export starts with its own button
    int view = e.view + 1;
    static const auto view_names = export_view_names();
    if (ui::combo("View", &view, view_names)) e.view = view - 1;
    tip("What to render (data exports need one view)");
    int size[2] = {e.width, e.height};
    if (ui::input_int2("Size", size)) e.width = size[0], e.height = size[1];
    tip("Rendered at this size (1 .. 8192), not upscaled");
    ui::slider_float("Text scale", &e.ui_scale, schema::kMinUiScale, schema::kMaxUiScale, "%.1f");
    tip("Keeps text readable in large exports (3 for 4K)");
    int sweep = static_cast<int>(e.sweep);
    if (ui::combo("Animate", &sweep, kSweepNames)) e.sweep = static_cast<lab::Sweep>(sweep);
    tip("What moves in a GIF/MP4/sequence; frame k shows t = k/fps");
    // Unset, the fields show the range the export will use (never "nan").
    const auto [from, to] = lab::default_sweep_range(e.sweep, e.frames);
    double range[2] = {e.from.value_or(from), e.to.value_or(to)};
    if (ui::input_double2("From, to", range, "%.6g")) {
        e.from = range[0];
        e.to = range[1];
    }
    tip("The sweep's start and end (by default: position 0..frames − 1, distance 0..64, θ 1e3..1e6, factor 1..32)");
    ui::input_int("Frames", &e.frames);
    ui::input_int("FPS", &e.fps);
    ui::checkbox("Transparent PNG", &e.transparent);
    ImGui::EndDisabled();
    if (status.running) {
        progress_bar(status);
        if (ui::button("Cancel export")) out.push_back(lab::cmd::CancelExport{});
        tip("Stop; nothing is left under the target name");
    } else {
        if (ui::button("Start export")) out.push_back(lab::cmd::StartExport{e});
        tip("Renders exactly the lab on screen (its whole state travels to the renderer); writes a temporary file and renames it when complete");
    }
    if (!status.message.empty()) ui::message(status.message);
}

}  // namespace ropelab::controls
