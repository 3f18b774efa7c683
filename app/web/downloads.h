#pragma once
// Saving on the web: the lab's exports and saves are written, through the same atomic writes as
// on the desktop, into the page's /downloads folder, and each file there is handed to the browser
// as a download. PNG is the canvas as shown; SVG is the next frame captured as a figure; CSV and
// JSON are the view's data. Animations (GIF, MP4, PNG sequences) and PDF need the desktop's
// ffmpeg and cairo: the export says so rather than failing silently.
#include <memory>
#include <string>

#include "plot/capture.h"
#include "views/lab_view.h"
#include "window.h"

namespace ropelab::web {

inline constexpr const char* kDownloads = "/downloads";

class Downloads {
public:
    // Before the window's frame: starts capturing it when an SVG was asked for.
    void before_frame();
    // After it: performs what the lab asked for and hands finished files to the browser.
    void after_frame(Window& window, views::LabView& view);

private:
    void start_export(Window& window, const Lab& lab, lab::ExportStatus& status);
    int started_ = 0;
    std::string svg_path_;  // the SVG export waiting for the next frame
    std::unique_ptr<draw::FrameCapture> capture_;
};

}  // namespace ropelab::web
