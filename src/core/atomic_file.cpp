#include "core/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/input_file.h"

namespace ropelab {

namespace {

// ---- What this run holds, for the signal handler -------------------------------------------
// Plain arrays of C strings: a signal handler may only read memory that is never reallocated.
enum : int { kFree = 0, kFile = 1, kFolder = 2 };
struct Held {
    volatile std::sig_atomic_t kind = kFree;
    char path[PATH_MAX] = {};
};
Held g_held[32];

int hold(const std::string& path, int kind) {
    if (path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < 32; ++i) {
        if (g_held[i].kind != kFree) continue;
        std::memcpy(g_held[i].path, path.c_str(), path.size() + 1);
        g_held[i].kind = kind;
        return i;
    }
    return -1;  // more than 32 at once: still removed by the normal paths, not by a signal
}

void release(int& slot) {
    if (slot >= 0) g_held[slot].kind = kFree;
    slot = -1;
}

// Only async-signal-safe calls: unlink, open, getdents64 through syscall, unlinkat, rmdir.
void empty_and_remove_folder(const char* path) {
#ifdef __EMSCRIPTEN__  // a page has no signals (nothing to be safe from) and no getdents64 syscall
    if (DIR* dir = opendir(path)) {
        while (const dirent* entry = readdir(dir)) {
            if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) unlinkat(dirfd(dir), entry->d_name, 0);
        }
        closedir(dir);
    }
#else
    const int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        alignas(8) char buffer[4096];
        long n;
        while ((n = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
            for (long at = 0; at < n;) {
                // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
                unsigned short reclen;
                std::memcpy(&reclen, buffer + at + 16, sizeof reclen);
                const char* name = buffer + at + 19;
                if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0) unlinkat(fd, name, 0);
                at += reclen;
            }
        }
        close(fd);
    }
#endif
    rmdir(path);
}

volatile pid_t g_children[4] = {};

void remove_everything_held() {
    for (volatile pid_t& child : g_children) {
        if (child > 0) {
            kill(child, SIGKILL);
            waitpid(child, nullptr, 0);
        }
        child = 0;
    }
    for (Held& h : g_held) {
        if (h.kind == kFile) unlink(h.path);
        if (h.kind == kFolder) empty_and_remove_folder(h.path);
        h.kind = kFree;
    }
}

volatile int* g_cancel_flag = nullptr;
volatile std::sig_atomic_t g_signalled = 0;

void end_now(int sig) {
    remove_everything_held();
    std::signal(sig, SIG_DFL);
    raise(sig);
}

extern "C" void on_terminate(int sig) {
    if (g_cancel_flag && !g_signalled) {
        // Let the loop cancel cleanly (it closes ffmpeg and removes its files); if it has not
        // ended within a second, the alarm ends it.
        g_signalled = 1;
        *g_cancel_flag = 1;
        alarm(1);
        return;
    }
    end_now(sig);
}

extern "C" void on_deadline(int) { end_now(SIGTERM); }

// ---- Targets ---------------------------------------------------------------------------------

std::string trimmed(const std::string& path) {
    std::string t = path;
    while (t.size() > 1 && t.back() == '/') t.pop_back();
    return t;
}

bool exists_no_follow(const std::string& path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0;
}

// The folder holding `path` ("." for a bare name).
std::string parent_folder(const std::string& path) {
    const std::string parent = std::filesystem::path(path).parent_path().string();
    return parent.empty() ? "." : parent;
}

// A name of our own beside `path`: short, whatever the length of the target's name (a legal
// 255-byte name has no room for a suffix), hidden, and unique (mkstemp/mkdtemp fill the Xs).
std::string staging_pattern(const std::string& path) { return parent_folder(path) + "/.ropelab-XXXXXX"; }

// The process's umask, read without changing it (other threads may be creating files).
mode_t current_umask() {
    std::FILE* status = std::fopen("/proc/self/status", "re");
    unsigned mask = 022;
    if (status) {
        char line[256];
        while (std::fgets(line, sizeof line, status)) {
            if (std::sscanf(line, "Umask: %o", &mask) == 1) break;
        }
        std::fclose(status);
    }
    return static_cast<mode_t>(mask);
}

// The file a write to `path` replaces: `path` itself, or the regular file its link points to.
std::string resolved_target(const std::string& path) {
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        if (char* real = realpath(path.c_str(), nullptr)) {
            std::string out = real;
            std::free(real);
            return out;
        }
    }
    return path;
}

bool move_without_replacing(const std::string& from, const std::string& to) {
#ifdef __EMSCRIPTEN__
    // A page's memory file system has one thread and no other writer: look, then rename.
    struct stat st;
    if (lstat(to.c_str(), &st) == 0) {
        errno = EEXIST;
        return false;
    }
    return std::rename(from.c_str(), to.c_str()) == 0;
#else
    return renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0;
#endif
}

std::string cannot_write(const std::string& path, const std::string& why) { return "cannot write " + path + ": " + why; }

// Why writing `path` would replace one of this run's inputs, or "". Only the document being
// saved (`may_replace`: "session", "lesson") may be replaced, and only by a save of that kind.
std::string input_problem(const std::string& path, std::string_view may_replace) {
    const std::optional<ReadInput> input = input_at(path);
    if (!input || (!may_replace.empty() && input->what == may_replace)) return "";
    return fmt::format("it is the {} file {} this run read; an output never replaces an input (choose another name)",
                       input->what, input->path);
}

}  // namespace

std::string folder_problem(const std::string& path) {
    std::filesystem::path folder = std::filesystem::path(trimmed(path)).parent_path();
    if (folder.empty()) folder = ".";
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) return "folder " + folder.string() + " does not exist";
    if (access(folder.c_str(), W_OK) != 0) return "folder " + folder.string() + " is not writable";
    return "";
}

std::string file_target_problem(const std::string& path) {
    if (path.empty()) return "no file name given";
    if (path.back() == '/') return path + " names a folder; give a file name";
    struct stat st;
    if (lstat(path.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            struct stat to;
            if (stat(path.c_str(), &to) != 0) return path + " is a link to nothing; ropelab follows links only to regular files";
            if (S_ISDIR(to.st_mode)) return path + " is a link to a folder; ropelab follows links only to regular files";
            if (!S_ISREG(to.st_mode)) return path + " is a link to something that is not a regular file";
            return folder_problem(resolved_target(path));
        }
        if (S_ISDIR(st.st_mode)) return path + " is a folder; give a file name";
        if (!S_ISREG(st.st_mode)) return path + " is not a regular file";
    }
    return folder_problem(path);
}

std::string folder_target_problem(const std::string& path) {
    const std::string folder = trimmed(path);
    struct stat st;
    if (lstat(folder.c_str(), &st) != 0) return folder_problem(folder);
    if (S_ISLNK(st.st_mode)) return path + " is a symbolic link; a PNG sequence goes into a real folder, new or empty";
    if (!S_ISDIR(st.st_mode)) return path + " is a file, not a folder";
    std::error_code ec;
    int entries = 0;
    for (auto it = std::filesystem::directory_iterator(folder, ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec)) {
        ++entries;
    }
    if (ec) return "cannot read folder " + path + ": " + ec.message();
    if (entries > 0) {
        return path + " is not empty (" + std::to_string(entries) + (entries == 1 ? " entry" : " entries") +
               "); a PNG sequence goes into a new folder or an empty one, never among other files";
    }
    if (access(folder.c_str(), W_OK) != 0) return "folder " + folder + " is not writable";
    return "";
}

// ---- PartialFile -------------------------------------------------------------------------------

PartialFile::~PartialFile() { abandon(); }

std::string export_target_problem(const std::string& path, std::string_view may_replace) {
    if (const std::string problem = input_problem(path, may_replace); !problem.empty()) return problem;
    return file_target_problem(path);
}

bool PartialFile::claim(const std::string& target, std::string& error, std::string_view may_replace) {
    abandon();
    if (const std::string problem = export_target_problem(target, may_replace); !problem.empty()) {
        error = cannot_write(target, problem);
        return false;
    }
    shown_ = target;
    target_ = resolved_target(target);
    name_was_ = identity(shown_, false);
    file_was_ = identity(target_, true);
    struct stat st;
    replacing_ = stat(target_.c_str(), &st) == 0 && S_ISREG(st.st_mode);
    // The new file keeps the permissions of the one it replaces.
    const mode_t mode = replacing_ ? (st.st_mode & 07777) : 0;
    std::string partial = staging_pattern(target_);
    const int fd = mkostemp(partial.data(), O_CLOEXEC);
    if (fd < 0) {
        error = cannot_write(target, std::strerror(errno));
        return false;
    }
    // mkstemp makes 0600; a new file gets what open(…, 0666) would have given it.
    fchmod(fd, replacing_ ? mode : (0666 & ~current_umask()));
    close(fd);
    partial_ = partial;
    may_replace_ = may_replace;
    slot_ = hold(partial_, kFile);
    return true;
}

bool PartialFile::commit(std::string& error) {
    if (partial_.empty()) {
        error = cannot_write(shown_, "nothing was written");
        return false;
    }
    // Checked here, at the end, and not only when the run began: an input may have been read
    // after the target was claimed (a q file, a script's own file, a lesson's config), or linked
    // to the target meanwhile.
    if (const std::string problem = input_problem(target_, may_replace_); !problem.empty()) {
        error = cannot_write(shown_, problem);
        abandon();
        return false;
    }
    const std::optional<ReadInput> document = input_at(target_);  // the document this save replaces, if any
    struct stat written;
    if (stat(partial_.c_str(), &written) != 0 || written.st_size == 0) {
        // An encoder that exits 0 without writing must not turn the user's file into nothing.
        error = cannot_write(shown_, std::string("the result is empty (0 bytes)") + (replacing_ ? ", so the file there was kept" : ""));
        abandon();
        return false;
    }
    // A long render gives the target time to change: swapped for a link, replaced by another
    // file, created. Whatever is there now is the user's, and is kept.
    if (identity(shown_, false) != name_was_ || identity(target_, true) != file_was_) {
        error = cannot_write(shown_, shown_ + " changed while the file was written (replaced, linked or created); it was "
                                              "kept as it is now: export again to replace it");
        abandon();
        return false;
    }
    // rename() replaces a regular file atomically and fails on a folder (EISDIR): whatever
    // appeared at the target meanwhile, only a regular file can be replaced.
    if (std::rename(partial_.c_str(), target_.c_str()) != 0) {
        const std::string problem = folder_problem(target_);
        error = cannot_write(shown_, errno == EISDIR ? shown_ + " is a folder" : problem.empty() ? std::strerror(errno) : problem);
        abandon();
        return false;
    }
    // The saved document is still the user's open document (under a new inode): kept as an input.
    if (document) register_named_input(target_, document->what);
    partial_.clear();
    release(slot_);
    return true;
}

PartialFile::Identity PartialFile::identity(const std::string& path, bool follow) {
    struct stat st;
    if ((follow ? stat(path.c_str(), &st) : lstat(path.c_str(), &st)) != 0) return {};
    return {true, S_ISLNK(st.st_mode), static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino)};
}

void PartialFile::abandon() {
    if (!partial_.empty()) unlink(partial_.c_str());
    partial_.clear();
    release(slot_);
}

bool write_file_atomically(const std::string& path, const std::function<bool(std::FILE*)>& write, std::string& error,
                           std::string_view may_replace) {
    PartialFile file;
    if (!file.claim(path, error, may_replace)) return false;
    std::FILE* out = std::fopen(file.path().c_str(), "wbe");
    errno = 0;
    bool ok = out && write(out) && std::fflush(out) == 0;
    const int write_errno = errno;
    // Replacing a user's file: make the new bytes durable before the rename, so a crash cannot
    // leave an empty file where theirs was. New files skip it (a PNG sequence writes hundreds).
    if (ok && file.replacing()) ok = fsync(fileno(out)) == 0;
    if (out && std::fclose(out) != 0) ok = false;
    if (!ok) {
        const std::string problem = folder_problem(path);
        error = cannot_write(path, !problem.empty() ? problem
                                   : write_errno == ENOSPC ? "disk full"
                                   : write_errno ? std::strerror(write_errno) : "the write failed");
        return false;
    }
    return file.commit(error);
}

bool write_file_atomically(const std::string& path, std::string_view bytes, std::string& error,
                           std::string_view may_replace) {
    return write_file_atomically(
        path, [bytes](std::FILE* out) { return std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size(); }, error,
        may_replace);
}

// ---- PartialFolder -----------------------------------------------------------------------------

PartialFolder::~PartialFolder() { abandon(); }

bool PartialFolder::claim(const std::string& target, std::string& error) {
    abandon();
    if (const std::string problem = folder_target_problem(target); !problem.empty()) {
        error = "cannot write " + target + ": " + problem;
        return false;
    }
    target_ = trimmed(target);
    target_existed_ = exists_no_follow(target_);
    // Beside a new folder, so a killed run leaves a hidden .ropelab-XXXXXX rather than a
    // half-filled NAME; inside an existing empty one, whose parent may not be ours to write in.
    std::string staging = target_existed_ ? target_ + "/.ropelab-XXXXXX" : staging_pattern(target_);
    if (!mkdtemp(staging.data())) {
        error = "cannot write " + target + ": " + std::strerror(errno);
        return false;
    }
    // mkdtemp makes 0700; the folder moved into place gets what mkdir(…, 0777) would give it.
    if (!target_existed_) chmod(staging.c_str(), 0777 & ~current_umask());
    staging_ = staging;
    slot_ = hold(staging_, kFolder);
    return true;
}

std::string PartialFolder::add(const std::string& name) {
    names_.push_back(name);
    return staging_ + "/" + name;
}

bool PartialFolder::commit(std::string& error) {
    if (!target_existed_) {
        if (!move_without_replacing(staging_, target_)) {
            error = "cannot write " + target_ + ": " +
                    (errno == EEXIST || errno == ENOTEMPTY ? target_ + " appeared while the frames were written"
                                                           : std::strerror(errno));
            abandon();
            return false;
        }
    } else {
        for (const std::string& name : names_) {
            if (!move_without_replacing(staging_ + "/" + name, target_ + "/" + name)) {
                error = "cannot move " + name + " into " + target_ + ": " + std::strerror(errno);
                abandon();
                return false;
            }
            moved_.push_back(name);
        }
        rmdir(staging_.c_str());
    }
    staging_.clear();
    names_.clear();
    moved_.clear();
    release(slot_);
    return true;
}

void PartialFolder::abandon() {
    if (staging_.empty()) return;
    for (const std::string& name : moved_) unlink((target_ + "/" + name).c_str());
    for (const std::string& name : names_) unlink((staging_ + "/" + name).c_str());
    rmdir(staging_.c_str());  // fails, leaving it, if anything else is inside
    staging_.clear();
    names_.clear();
    moved_.clear();
    release(slot_);
}

// ---- ScratchFile ---------------------------------------------------------------------------------

ScratchFile::ScratchFile(const std::string& suffix) {
    std::error_code ec;
    std::string pattern = (std::filesystem::temp_directory_path(ec) / "ropelab-XXXXXX").string() + suffix;
    const int fd = mkstemps(pattern.data(), static_cast<int>(suffix.size()));
    if (fd < 0) return;
    close(fd);
    path_ = pattern;
    slot_ = hold(path_, kFile);
}

ScratchFile::~ScratchFile() {
    if (!path_.empty()) unlink(path_.c_str());
    release(slot_);
}

void remove_partials_on_signal(volatile int* cancel_flag) {
    g_cancel_flag = cancel_flag;
    g_signalled = 0;
    struct sigaction action {};
    action.sa_handler = on_terminate;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGHUP, &action, nullptr);  // the terminal closed: a NAME.partial left would block every later run
    // Past a file-size limit (ulimit -f) a write fails with EFBIG instead of killing the process,
    // so the failure path removes the run's files like any other write error.
    std::signal(SIGXFSZ, SIG_IGN);
    action.sa_handler = on_deadline;
    sigaction(SIGALRM, &action, nullptr);
}

void signal_cancel_done() { alarm(0); }

void hold_child_process(int pid) {
    for (volatile pid_t& child : g_children) {
        if (child == 0) {
            child = pid;
            return;
        }
    }
}

void release_child_process(int pid) {
    for (volatile pid_t& child : g_children) {
        if (child == pid) child = 0;
    }
}

}  // namespace ropelab
