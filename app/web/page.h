#pragma once
// The browser around the lab: the address bar (the state as a share link), the clipboard,
// downloads and the user's files. Everything the page's JavaScript does for the C++ side is here.
#include <string>
#include <utility>

namespace ropelab::web {

// The URL's fragment without its '#': "s=…" for a share link.
std::string url_fragment();
// Writes the state into the address bar (#s=SHARE) without adding a history entry.
void show_share_in_url(const std::string& share);
// The link that opens this state: the page's address with #s=SHARE.
std::string share_link(const std::string& share);
// Puts text on the system clipboard (the browser may refuse without a user gesture; then the
// link stays in the address bar).
void copy_to_clipboard(const std::string& text);
// Hands the file at `path` (in the page's memory file system) to the browser as a download.
void offer_download(const std::string& path);
// Opens the browser's file chooser; a chosen file lands in /uploads and comes back as a drop.
void choose_file(const std::string& accept);

}  // namespace ropelab::web

namespace ropelab {
class Window;
}

namespace ropelab::web {

// The browser window's inner size in CSS pixels: the canvas fills it.
std::pair<int, int> page_size();
// Resizes the window (the canvas) to the page when the browser window changed size.
void fit_canvas(Window& window);

}  // namespace ropelab::web
