#pragma once
// Writing output without ever losing a user's file: the one way the lab writes a file the user
// sees. Every export, screenshot, script output, panel export and session or lesson save goes
// through PartialFile (write_file_atomically wraps it; PNG sequences stage through PartialFolder,
// whose frames are PartialFiles too). The rules:
//  * commit() checks again, at the moment it renames, that the target is not a file this run
//    read (core/input_file.h's registry): an output never replaces an input, whatever kind of
//    input it is and whenever it was read. The one exception is saving the document the user
//    opened (a session or a lesson) onto itself: the writer names that kind (`may_replace`).
//  * An empty result (an encoder that exited 0 and wrote nothing) is never committed: the
//    user's file stays and the write fails.
//  * A file target is written beside itself as a hidden .ropelab-XXXXXX (mkstemp: unique, and
//    short, so any legal NAME works, 255 bytes included), and renamed over NAME only when
//    complete. The one thing ever replaced is a regular file at NAME (or the regular file a
//    symbolic link at NAME points to). A folder, a device, a link to a folder or to nothing is
//    refused. Files this run did not create (a NAME.partial of the user's, another run's
//    staging file) are never reused or deleted.
//  * A folder target (a PNG sequence) must be new or empty. Frames are staged in a folder this
//    run creates (.ropelab-XXXXXX beside a new one, inside an empty one) and moved in without
//    replacing anything.
//  * On failure, cancel, SIGINT or SIGTERM exactly what this run created is removed.
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ropelab {

// Why a file cannot be written at `path`, or "" when it can.
std::string file_target_problem(const std::string& path);

// file_target_problem, and also: the target is a file this run read (a config, a session, a
// lesson, a script, a vector file) other than a document of kind `may_replace`. Commands call it
// early to refuse before any work; PartialFile::commit calls it again at the end.
std::string export_target_problem(const std::string& path, std::string_view may_replace = {});

// Why a PNG sequence cannot be written into folder `path`, or "" when it can.
std::string folder_target_problem(const std::string& path);

// Why `path`'s folder cannot take a new entry (missing, not writable), or "".
std::string folder_problem(const std::string& path);

// Writes `bytes` to `path` by the rules above, checking every write and the close (a full disk
// shows up there). On failure returns false with the reason in `error`; nothing is left behind.
// `may_replace`: the kind of document this write saves ("session", "lesson"), which may replace
// the file of that kind the user opened; empty for every other write.
bool write_file_atomically(const std::string& path, std::string_view bytes, std::string& error,
                           std::string_view may_replace = {});
// The same, with the bytes streamed by `write` onto the open file (false: a write failed).
bool write_file_atomically(const std::string& path, const std::function<bool(std::FILE*)>& write, std::string& error,
                           std::string_view may_replace = {});

// A file this run is writing: .ropelab-XXXXXX beside the target, created by claim(), renamed
// onto the target by commit(), removed by abandon() or the destructor when not committed.
class PartialFile {
public:
    PartialFile() = default;
    ~PartialFile();
    PartialFile(const PartialFile&) = delete;
    PartialFile& operator=(const PartialFile&) = delete;

    // `may_replace`: as for write_file_atomically.
    bool claim(const std::string& target, std::string& error, std::string_view may_replace = {});
    const std::string& path() const { return partial_; }  // where to write
    bool replacing() const { return replacing_; }          // a regular file is at the target now
    bool commit(std::string& error);
    void abandon();

private:
    std::string shown_;    // the target as the user named it, for messages
    std::string target_;   // the file to replace: the target, or the regular file its link names
    std::string partial_;
    std::string may_replace_;
    bool replacing_ = false;
    int slot_ = -1;        // in the signal handler's list
    // What was at the target when claimed (lstat of the name, stat of the file replaced),
    // checked again just before the rename: a target swapped meanwhile is kept, not replaced.
    struct Identity {
        bool exists = false, link = false;
        unsigned long long device = 0, inode = 0;
        bool operator==(const Identity&) const = default;
    };
    Identity name_was_, file_was_;
    static Identity identity(const std::string& path, bool follow);
};

// A PNG sequence's folder: frames go into a staging folder this run creates (.ropelab-XXXXXX
// beside a new folder, or inside an existing empty folder) and are moved in by commit().
class PartialFolder {
public:
    PartialFolder() = default;
    ~PartialFolder();
    PartialFolder(const PartialFolder&) = delete;
    PartialFolder& operator=(const PartialFolder&) = delete;

    bool claim(const std::string& target, std::string& error);
    std::string add(const std::string& name);  // the path to write file `name` at
    bool commit(std::string& error);
    void abandon();

private:
    std::string target_, staging_;
    bool target_existed_ = false;
    std::vector<std::string> names_;  // files written into staging
    std::vector<std::string> moved_;  // files already moved into the target
    int slot_ = -1;
};

// A file of our own in the system's temporary folder (e.g. a GIF palette), created exclusively
// with the given suffix and removed by the destructor (and on SIGINT/SIGTERM).
class ScratchFile {
public:
    explicit ScratchFile(const std::string& suffix);
    ~ScratchFile();
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;
    const std::string& path() const { return path_; }  // empty when it could not be created

private:
    std::string path_;
    int slot_ = -1;
};

// A child process writing one of this run's partial files (ffmpeg): a signal kills it before
// the files are removed, so it cannot recreate them.
void hold_child_process(int pid);
void release_child_process(int pid);

// SIGINT, SIGTERM and SIGHUP remove every partial file and staging folder this run holds, then end
// the process as the signal would. Commands that poll for a cancel flag instead pass it here:
// the first signal sets it, a second one (or one second without the loop stopping) cleans up
// and ends the process.
void remove_partials_on_signal(volatile int* cancel_flag = nullptr);
// The loop saw the cancel flag and cleaned up itself: the one-second deadline is off.
void signal_cancel_done();

}  // namespace ropelab
