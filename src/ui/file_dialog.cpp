#include "ui/file_dialog.h"

#include <algorithm>
#include <functional>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <imgui.h>

#include "ui/widgets.h"

namespace ropelab::ui {

namespace fs = std::filesystem;

namespace {

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequal_tail(std::string_view name, std::string_view tail) {
    if (tail.size() > name.size()) return false;
    return std::equal(tail.begin(), tail.end(), name.end() - static_cast<std::ptrdiff_t>(tail.size()),
                      [](char a, char b) { return lower(a) == lower(b); });
}

// Names as a person reads a listing: case aside, then byte order so the order is total.
bool name_before(const FolderEntry& a, const FolderEntry& b) {
    if (a.folder != b.folder) return a.folder;
    const bool less = std::lexicographical_compare(a.name.begin(), a.name.end(), b.name.begin(), b.name.end(),
                                                   [](char x, char y) { return lower(x) < lower(y); });
    const bool greater = std::lexicographical_compare(b.name.begin(), b.name.end(), a.name.begin(), a.name.end(),
                                                      [](char x, char y) { return lower(x) < lower(y); });
    return less || (!greater && a.name < b.name);
}

std::string local_time(fs::file_time_type t) {
#ifdef __EMSCRIPTEN__  // LLVM 14's libc++ has no file_clock::to_sys; its file clock counts from 1970
    const std::chrono::system_clock::time_point sys(std::chrono::duration_cast<std::chrono::system_clock::duration>(t.time_since_epoch()));
#else
    const auto sys = std::chrono::file_clock::to_sys(t);
#endif
    const std::time_t seconds = std::chrono::system_clock::to_time_t(std::chrono::time_point_cast<std::chrono::system_clock::duration>(sys));
    std::tm tm{};
    if (!localtime_r(&seconds, &tm)) return {};
    char text[32];
    return std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &tm) ? text : "";
}

std::string size_text(std::uintmax_t bytes) {
    if (bytes < 1024) return fmt::format("{} B", bytes);
    const char* units[] = {"KB", "MB", "GB", "TB"};
    double v = static_cast<double>(bytes) / 1024.0;
    int u = 0;
    for (; v >= 1024.0 && u < 3; ++u) v /= 1024.0;
    return v < 10 ? fmt::format("{:.1f} {}", v, units[u]) : fmt::format("{:.0f} {}", v, units[u]);
}

// An open dialog: what it was asked, the folder shown (listed once, when it changes) and what
// the person has typed or picked so far.
struct Dialog {
    FileDialogRequest request;
    fs::path folder;
    FolderListing listing;             // every entry, unfiltered by extension (a save checks them all)
    std::vector<std::size_t> shown;    // the entries the list shows: folders, and files with the extensions
    std::vector<std::string> recent_folders;
    std::string name;                  // the name field
    std::string problem;               // why the last Open/Save did not finish
    fs::path replacing;                // a save over this existing file, awaiting its confirm
    std::ptrdiff_t selected = -1;      // into listing.entries
    bool folder_picked = false;        // a folder was clicked after the name was last typed: Enter enters it
    bool show_hidden = false;
    bool opening = true;               // OpenPopup is due this frame
    int drawn_frame = 0;               // ImGui's frame count when last drawn (or asked for)
    bool open = true;
};

std::map<std::string, Dialog, std::less<>>& dialogs() {
    static std::map<std::string, Dialog, std::less<>> all;
    return all;
}

void filter(Dialog& d) {
    d.shown.clear();
    const std::vector<FolderEntry>& entries = d.listing.entries;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (entries[i].folder || has_extension(entries[i].name, d.request.extensions)) d.shown.push_back(i);
    }
}

void go_to(Dialog& d, fs::path folder) {
    d.folder = folder.lexically_normal();
    if (d.folder.has_relative_path() && !d.folder.has_filename()) d.folder = d.folder.parent_path();  // "/a/b/" → "/a/b"
    d.listing = list_folder(d.folder.string(), {}, d.show_hidden);
    d.selected = -1;
    d.folder_picked = false;
    d.replacing.clear();
    d.problem.clear();
    filter(d);
}

const FolderEntry* find_entry(const Dialog& d, const std::string& name) {
    for (const FolderEntry& e : d.listing.entries) {
        if (e.name == name) return &e;
    }
    return nullptr;
}

fs::path absolute_path(const fs::path& p) {
    std::error_code ec;
    fs::path a = fs::absolute(p, ec);
    return (ec ? p : a).lexically_normal();
}

// Open / Save / Enter: the path to hand back, or nothing (a folder entered, a confirm asked, a
// problem shown).
std::optional<std::string> confirm(Dialog& d) {
    d.problem.clear();
    if (d.folder_picked && d.selected >= 0 && static_cast<std::size_t>(d.selected) < d.listing.entries.size()) {
        go_to(d, d.folder / d.listing.entries[static_cast<std::size_t>(d.selected)].name);  // the name typed stays
        return std::nullopt;
    }
    if (d.name.empty()) {
        const auto& entries = d.listing.entries;
        if (d.selected >= 0 && static_cast<std::size_t>(d.selected) < entries.size() && entries[static_cast<std::size_t>(d.selected)].folder) {
            go_to(d, d.folder / entries[static_cast<std::size_t>(d.selected)].name);
        } else {
            d.problem = d.request.mode == FileDialogMode::Save ? "Type a name to save as." : "Pick a file to open.";
        }
        return std::nullopt;
    }
    fs::path target = fs::path(d.name).is_absolute() ? fs::path(d.name) : d.folder / d.name;
    target = target.lexically_normal();
    if (!target.has_filename()) {  // "sub/" or ".."
        go_to(d, target);
        d.name.clear();
        return std::nullopt;
    }
    if (target.parent_path() != d.folder) {  // a typed path: its folder is listed, then looked in
        go_to(d, target.parent_path());
        if (!d.listing.error.empty()) return std::nullopt;
    }
    std::string name = target.filename().string();
    if (d.request.mode == FileDialogMode::Save && !d.request.extensions.empty() && !has_extension(name, d.request.extensions) &&
        !find_entry(d, name)) {
        name += d.request.extensions.front();  // "notes" saves as "notes.ropelab"
    }
    d.name = name;
    const FolderEntry* entry = find_entry(d, name);
    if (entry && entry->folder) {
        go_to(d, d.folder / name);
        d.name.clear();
        return std::nullopt;
    }
    const fs::path chosen = d.folder / name;
    if (d.request.mode == FileDialogMode::Open) {
        if (!entry) {
            d.problem = fmt::format("There is no “{}” in this folder.", name);
            return std::nullopt;
        }
        return chosen.string();
    }
    if (entry && d.replacing != chosen) {  // saving over a file: asked first
        d.replacing = chosen;
        return std::nullopt;
    }
    return chosen.string();
}

void path_bar(Dialog& d) {
    fs::path so_far;
    int level = 0;
    for (const fs::path& part : d.folder) {
        so_far /= part;
        if (part.empty()) continue;
        const std::string label = fmt::format("{}##folder level {}", part.string(), level++);
        if (level > 1) ImGui::SameLine(0, 2);
        if (button(label.c_str())) {
            go_to(d, so_far);
            return;
        }
    }
    ImGui::SameLine();
    if (checkbox("Hidden files", &d.show_hidden)) go_to(d, d.folder);
}

void recent_list(Dialog& d, std::optional<std::string>& chosen) {
    text_disabled("Recent files");
    for (std::size_t i = 0; i < d.request.recent.size(); ++i) {
        const fs::path file(d.request.recent[i]);
        const std::string label = fmt::format("{}##recent {}", file.filename().string(), i);
        if (selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick)) {
            go_to(d, file.parent_path());
            d.name = file.filename().string();
            if (ImGui::IsMouseDoubleClicked(0)) chosen = confirm(d);
        }
        tip(d.request.recent[i].c_str());
    }
    if (d.request.recent.empty()) text_disabled("(none yet)");
    ImGui::Spacing();
    text_disabled("Recent folders");
    for (std::size_t i = 0; i < d.recent_folders.size(); ++i) {
        const fs::path folder(d.recent_folders[i]);
        const std::string label = fmt::format("{}/##recent folder {}", folder.filename().string(), i);
        if (selectable(label.c_str(), folder == d.folder)) go_to(d, folder);
        tip(d.recent_folders[i].c_str());
    }
}

void entry_list(Dialog& d, std::optional<std::string>& chosen) {
    if (!d.listing.error.empty()) {
        message(fmt::format("This folder cannot be read: {}", d.listing.error));
        return;
    }
    if (d.shown.empty()) text_disabled("(no folders or matching files here)");
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable("entries", 3, flags)) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("Size", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("1023 MB").x);
    ImGui::TableSetupColumn("Modified", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("2026-01-01 00:00").x);
    ImGui::TableHeadersRow();
    // Only the rows in view are drawn: a folder of 10^5 files costs what a screenful does.
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(d.shown.size()));
    while (clipper.Step()) {
        for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
            const std::size_t index = d.shown[static_cast<std::size_t>(row)];
            const FolderEntry& e = d.listing.entries[index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const std::string label = fmt::format("{}{}##entry", e.name, e.folder ? "/" : "");
            const bool selected = d.selected == static_cast<std::ptrdiff_t>(index);
            if (selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick)) {
                d.selected = static_cast<std::ptrdiff_t>(index);
                d.folder_picked = e.folder;
                d.replacing.clear();
                const bool twice = ImGui::IsMouseDoubleClicked(0);
                if (e.folder) {
                    if (twice) {
                        go_to(d, d.folder / e.name);
                        return ImGui::EndTable();
                    }
                } else {
                    d.name = e.name;
                    if (twice) chosen = confirm(d);
                }
            }
            ImGui::TableNextColumn();
            if (!e.folder) ImGui::TextUnformatted(size_text(e.bytes).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(e.modified.c_str());
        }
    }
    ImGui::EndTable();
}

void footer(Dialog& d, std::optional<std::string>& chosen) {
    const bool saving = d.request.mode == FileDialogMode::Save;
    const char* label = "File name";
    ImGui::SetNextItemWidth(-(ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x));
    if (input_text(label, &d.name, kMaxPathChars)) d.folder_picked = false;
    if (!d.replacing.empty()) {
        message(fmt::format("“{}” already exists. Replace it?", d.replacing.filename().string()));
        if (button("Replace")) chosen = d.replacing.string();
        ImGui::SameLine();
        if (button("Keep it")) d.replacing.clear();
        return;
    }
    if (!d.problem.empty()) message(d.problem);
    if (button(saving ? "Save" : "Open")) chosen = confirm(d);
    ImGui::SameLine();
    if (button("Cancel")) d.open = false;
    if (!d.request.extensions.empty()) {
        ImGui::SameLine();
        std::string kinds;
        for (const std::string& e : d.request.extensions) kinds += (kinds.empty() ? "" : ", ") + e;
        text_disabled(kinds);
    }
}

}  // namespace

bool has_extension(std::string_view name, std::span<const std::string> extensions) {
    if (extensions.empty()) return true;
    return std::any_of(extensions.begin(), extensions.end(), [&](const std::string& e) { return iequal_tail(name, e); });
}

FolderListing list_folder(const std::string& folder, std::span<const std::string> extensions, bool show_hidden) {
    FolderListing listing;
    std::error_code ec;
    fs::directory_iterator it(folder, ec);
    if (ec) {
        listing.error = ec.message();
        return listing;
    }
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        const fs::directory_entry& entry = *it;
        FolderEntry e;
        e.name = entry.path().filename().string();
        if (!show_hidden && !e.name.empty() && e.name.front() == '.') continue;
        std::error_code entry_ec;
        e.folder = entry.is_directory(entry_ec);  // follows links: a link to a folder is entered
        if (!e.folder) {
            if (!has_extension(e.name, extensions)) continue;
            e.bytes = entry.file_size(entry_ec);
            if (entry_ec) e.bytes = 0;
        }
        entry_ec.clear();
        const auto when = entry.last_write_time(entry_ec);
        if (!entry_ec) e.modified = local_time(when);
        listing.entries.push_back(std::move(e));
    }
    if (ec) listing.error = ec.message();  // partly read: what was read is shown, and why it stopped
    std::sort(listing.entries.begin(), listing.entries.end(), name_before);
    return listing;
}

namespace {

std::optional<HostFiles>& host_files() {
    static std::optional<HostFiles> host;
    return host;
}

// Save dialogs the host answered at once: the path file_dialog(id) gives in the next call.
std::map<std::string, std::string, std::less<>>& host_answers() {
    static std::map<std::string, std::string, std::less<>> answers;
    return answers;
}

}  // namespace

void use_host_files(HostFiles host) { host_files() = std::move(host); }

void open_file_dialog(std::string_view id, FileDialogRequest request) {
    if (const std::optional<HostFiles>& host = host_files()) {
        if (request.mode == FileDialogMode::Open) {
            host->choose(request.extensions);  // the file comes back as a drop
        } else {
            const std::string name = request.start.empty() ? "ropelab" : fs::path(request.start).filename().string();
            host_answers()[std::string(id)] = (fs::path(host->save_folder) / (name.empty() ? "ropelab" : name)).string();
        }
        return;
    }
    Dialog d;
    d.request = std::move(request);
    for (const std::string& file : d.request.recent) {
        const std::string folder = fs::path(file).parent_path().string();
        if (!folder.empty() && std::find(d.recent_folders.begin(), d.recent_folders.end(), folder) == d.recent_folders.end()) {
            d.recent_folders.push_back(folder);
        }
    }
    // The start is a folder or a file; listing it tells which (no other look at the disk).
    fs::path start = absolute_path(d.request.start.empty() ? fs::path(".") : fs::path(d.request.start));
    if (!start.has_filename()) start = start.parent_path();
    go_to(d, start);
    if (!d.listing.error.empty() && start.has_filename()) {
        // A file, or a folder not made yet (the default ropelab/ before the first save): the
        // nearest folder above that lists, with the name kept.
        d.name = start.filename().string();
        for (fs::path up = start.parent_path();; up = up.parent_path()) {
            go_to(d, up);
            if (d.listing.error.empty() || !up.has_relative_path()) break;
        }
        if (const FolderEntry* e = find_entry(d, d.name); e && !e->folder) d.selected = e - d.listing.entries.data();
    }
    d.drawn_frame = ImGui::GetFrameCount();
    dialogs().insert_or_assign(std::string(id), std::move(d));
}

std::optional<std::string> file_dialog(std::string_view id) {
    if (const auto answer = host_answers().find(id); answer != host_answers().end()) {
        std::string path = answer->second;
        host_answers().erase(answer);
        return path;
    }
    const auto it = dialogs().find(id);
    if (it == dialogs().end()) return std::nullopt;
    Dialog& d = it->second;
    if (!d.open) {
        dialogs().erase(it);
        return std::nullopt;
    }
    d.drawn_frame = ImGui::GetFrameCount();
    const std::string popup = fmt::format("{}##file dialog {}", d.request.title, id);
    if (d.opening) {
        ImGui::OpenPopup(popup.c_str());
        d.opening = false;
    }
    const ImGuiViewport* view = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(view->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(view->WorkSize.x * 0.75f, view->WorkSize.y * 0.8f), ImGuiCond_Appearing);
    bool keep = true;
    if (!ImGui::BeginPopupModal(popup.c_str(), &keep)) {  // closed by its title bar's ×
        dialogs().erase(it);
        return std::nullopt;
    }
    std::optional<std::string> chosen;
    path_bar(d);
    const float footer_height = ImGui::GetFrameHeightWithSpacing() * 2.5f + ImGui::GetTextLineHeightWithSpacing();
    const float body = std::max(ImGui::GetContentRegionAvail().y - footer_height, ImGui::GetFrameHeight() * 4);
    if (ImGui::BeginChild("recent", ImVec2(ImGui::GetContentRegionAvail().x * 0.25f, body), true)) recent_list(d, chosen);
    ImGui::EndChild();
    ImGui::SameLine();
    if (ImGui::BeginChild("listing", ImVec2(0, body), true)) entry_list(d, chosen);
    ImGui::EndChild();
    footer(d, chosen);

    // Keys: Enter answers as Open/Save does (or Replace, when asked); Esc steps back, then closes.
    if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !chosen) {
        const ImGuiIO& io = ImGui::GetIO();
        const bool enter = ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_Enter], false) || ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_KeyPadEnter], false);
        if (enter) chosen = d.replacing.empty() ? confirm(d) : std::optional(d.replacing.string());
        if (ImGui::IsKeyPressed(io.KeyMap[ImGuiKey_Escape], false)) {
            if (!d.replacing.empty()) d.replacing.clear();
            else d.open = false;
        }
    }
    if (chosen) chosen = absolute_path(*chosen).string();
    if (chosen || !d.open || !keep) {
        ImGui::CloseCurrentPopup();
        d.open = false;
    }
    ImGui::EndPopup();
    if (!d.open) dialogs().erase(it);
    return chosen;
}

bool file_dialog_open() {
    // One its caller stopped drawing (the panel hidden under it) is not open: ImGui closes a
    // modal that is not submitted, and the keys must not wait for it.
    const int now = ImGui::GetFrameCount();
    return std::any_of(dialogs().begin(), dialogs().end(), [now](const auto& kv) { return kv.second.open && now - kv.second.drawn_frame <= 2; });
}

}  // namespace ropelab::ui
