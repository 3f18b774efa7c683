// The lab's recent files and default save paths, through its one door (commands) on the CPU
// device: only files that opened or saved are remembered, newest first, ten at most; a save to the
// default path lands in $XDG_DOCUMENTS_DIR/ropelab/ and never replaces a file already there.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "core/cpu_device.h"
#include "lab/lab.h"
#include "support/files.h"

namespace ropelab {
namespace {

namespace fs = std::filesystem;

struct SmallLab {
    CpuDevice device;
    std::unique_ptr<Lab> lab;
    SmallLab() {
        LabParams p;
        p.playing = false;
        p.max_distance = 256;
        lab = std::make_unique<Lab>(device, p);
    }
    void step(lab::Commands commands) { lab->update(1.0, {}, commands); }
};

std::string absolute_text(const fs::path& p) { return fs::absolute(p).lexically_normal().string(); }

TEST(RecentFilesOfTheLab, OnlyWhatOpenedOrSavedNewestFirstTenAtMost) {
    const fs::path dir = test::fresh_dir("lab_recent");
    SmallLab s;
    s.step({lab::cmd::SaveSession{(dir / "a.ropelab").string()}});
    s.step({lab::cmd::SaveSession{(dir / "b.ropelab").string()}});
    s.step({lab::cmd::OpenSession{(dir / "a.ropelab").string()}});
    s.step({lab::cmd::OpenSession{(dir / "missing.ropelab").string()}});  // refused: not remembered
    ASSERT_FALSE(s.lab->status().error.empty());
    EXPECT_EQ(s.lab->recent_files(), (std::vector<std::string>{absolute_text(dir / "a.ropelab"), absolute_text(dir / "b.ropelab")}));
    for (int i = 0; i < 12; ++i) s.step({lab::cmd::SaveSession{(dir / ("s" + std::to_string(i) + ".ropelab")).string()}});
    ASSERT_EQ(s.lab->recent_files().size(), 10u);
    EXPECT_EQ(s.lab->recent_files().front(), absolute_text(dir / "s11.ropelab"));
    EXPECT_EQ(s.lab->recent_files().back(), absolute_text(dir / "s2.ropelab"));
}

TEST(DefaultSavePathsOfTheLab, DocumentsFolderMadeOnFirstSaveAndAUsersFileKept) {
    const fs::path dir = test::fresh_dir("lab_defaults");
    setenv("XDG_DOCUMENTS_DIR", (dir / "docs").c_str(), 1);
    {
        SmallLab s;
        EXPECT_EQ(s.lab->status().session_path, (dir / "docs" / "ropelab" / "session.ropelab").string());
        s.step({lab::cmd::RecordScene{.animated = false, .seconds = 2.0}});
        s.step({lab::cmd::SaveLesson{s.lab->status().lesson_save_path}});
        EXPECT_TRUE(s.lab->status().error.empty()) << s.lab->status().error;
        EXPECT_TRUE(fs::exists(dir / "docs" / "ropelab" / "my-lesson.ropelesson"));
        s.step({lab::cmd::SaveLesson{s.lab->status().lesson_save_path}});  // its own file, saved again: replaced
        EXPECT_FALSE(fs::exists(dir / "docs" / "ropelab" / "my-lesson-2.ropelesson"));
    }
    const std::string users = "a file of the user's\n";
    test::write_file((dir / "docs" / "ropelab" / "session.ropelab").string(), users);
    SmallLab s;
    s.step({lab::cmd::SaveSession{s.lab->status().session_path}});
    EXPECT_EQ(test::slurp((dir / "docs" / "ropelab" / "session.ropelab").string()), users);
    EXPECT_TRUE(fs::exists(dir / "docs" / "ropelab" / "session-2.ropelab"));
    EXPECT_EQ(s.lab->status().session_path, (dir / "docs" / "ropelab" / "session-2.ropelab").string());
    unsetenv("XDG_DOCUMENTS_DIR");
}

}  // namespace
}  // namespace ropelab
