#pragma once

#include <QString>

#include <functional>

class QMessageBox;
class QWidget;

namespace sd {

class E2bCliLogin;

/// Asks, window-modal, whether to copy the key of the E2B CLI's login into the
/// keychain as an E2B profile, naming the project or team it belongs to and saying
/// the file stays as it is. The box (object name "cliLoginConfirmation", accept
/// button "copyCliKeyButton") is opened, not exec()'d, and deletes itself when
/// closed; `copy` runs when the user agrees, nothing when they cancel.
QMessageBox *askToImportCliLogin(const E2bCliLogin &login, QWidget *parent, std::function<void()> copy);

/// "the key of the E2B CLI's login (the project “Name” (id))": how messages name it.
QString cliLoginKeyDescription(const E2bCliLogin &login);

} // namespace sd
