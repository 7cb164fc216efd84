#include "cliloginprompt.h"

#include "profiles/e2bclilogin.h"

#include <QCoreApplication>
#include <QDir>
#include <QMessageBox>
#include <QPushButton>

namespace sd {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("sd::CliLoginPrompt", text);
}

/// "~/.e2b/config.json" for a file in the home folder: shorter, and how the CLI's
/// users know it.
QString shownPath(const QString &path)
{
    const QString home = QDir::homePath() + QLatin1Char('/');
    return path.startsWith(home) ? QStringLiteral("~/") + path.mid(home.size()) : path;
}
} // namespace

QString cliLoginKeyDescription(const E2bCliLogin &login)
{
    return tr("the E2B CLI's key for %1").arg(login.ownerDescription());
}

QMessageBox *askToImportCliLogin(const E2bCliLogin &login, QWidget *parent, std::function<void()> copy)
{
    auto *box = new QMessageBox(QMessageBox::Question, tr("Use the E2B CLI's login"),
                                tr("Copy the API key of %1 from %2 into the system keychain, as an E2B profile?")
                                    .arg(login.ownerDescription(), shownPath(login.path())),
                                QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("cliLoginConfirmation"));
    box->setInformativeText(tr("The file stays as it is: the CLI keeps its login, and its sign-in "
                               "tokens are not read."));
    QPushButton *copyButton = box->addButton(tr("Copy key"), QMessageBox::AcceptRole);
    copyButton->setObjectName(QStringLiteral("copyCliKeyButton"));
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(copyButton);
    // The clicked button, not accepted(): a custom button's result code is its index.
    QObject::connect(box, &QMessageBox::buttonClicked, box, [copyButton, copy](QAbstractButton *clicked) {
        if (clicked == copyButton)
            copy();
    });
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();
    return box;
}

} // namespace sd
