#pragma once
// The window's menu bar: File, Edit, Window, Lessons, Help (not View and Lesson: the panel's Export
// combo and Lesson section have those labels, and scripts click by label). Every item is a command for the lab
// (lab/command.h), a view request or an edited copy of the state, as the panel's controls are;
// the files it names come from the file dialog (ui/file_dialog.h) and the lab reads them. Not
// drawn while presenting, nor in a figure.
#include "lab/command.h"
#include "lab/lab.h"
#include "views/panel/panel.h"
#include "views/views.h"

namespace ropelab::views {

// What the menus asked for this frame.
struct MenuChoices {
    lab::Commands commands;  // in the order chosen
    bool quit = false;       // File › Quit: the app closes the window
};

// Draws the menu bar of the current window (one begun with ImGuiWindowFlags_MenuBar) and the
// file dialogs its items open; the state edits (theme, panel, fullscreen) go into `edited`, the
// view requests (a workspace, the shortcut list) into `requests`.
MenuChoices menu_bar(const Lab& lab, const controls::PanelState& panel, LabParams& edited, Requests& requests);

}  // namespace ropelab::views
