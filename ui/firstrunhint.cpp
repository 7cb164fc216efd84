#include "firstrunhint.h"

#include "cliloginprompt.h"
#include "profiles/e2bclilogin.h"
#include "profiles/importkeyjob.h"

#include <QAction>
#include <QMessageBox>
#include <QSettings>
#include <QToolButton>

namespace sd {

namespace {
const QString doneKey = QStringLiteral("FirstRun/hintDone");
} // namespace

FirstRunHint::FirstRunHint(QSettings *settings, ProfileStore *profiles, KeyStore *keys, const QString &cliLoginPath,
                           const QProcessEnvironment &env, QWidget *parent)
    : MessageBanner(parent)
    , m_settings(settings)
    , m_profileStore(profiles)
    , m_keys(keys)
    , m_cliLoginPath(cliLoginPath)
    , m_profiles(new QAction(tr("Profiles…"), this))
    , m_dismiss(new QAction(tr("Dismiss"), this))
{
    setObjectName(QStringLiteral("firstRunHint"));
    setAccessibleName(tr("First-run hint"));
    // Dismiss says it for good; a close button beside it would only be ambiguous.
    setCloseButtonVisible(false);

    QString text = tr("Sandbox Desk runs on \"Local (this computer)\" with no account. "
                      "To manage cloud sandboxes, add an E2B or self-hosted profile in Profiles.");
    // Only whether it is set is kept: the key is read again when the user asks.
    if (ImportKeyJob::hasEnvironmentKey(env)) {
        text += QLatin1Char(' ') + tr("E2B_API_KEY is set: it can become an E2B profile, its key "
                                      "stored in the system keychain.");
        m_useKey = new QAction(tr("Use E2B_API_KEY"), this);
        addButton(m_useKey, QStringLiteral("useEnvironmentKeyButton"),
                  tr("Create an E2B profile with the key from E2B_API_KEY"));
        connect(m_useKey, &QAction::triggered, this, &FirstRunHint::useEnvironmentKey);
    }
    // Read again on use, after the user agreed: the key is not kept meanwhile.
    const E2bCliLogin cliLogin = E2bCliLogin::read(m_cliLoginPath);
    if (cliLogin.isUsable()) {
        text += QLatin1Char(' ') + tr("The E2B CLI is logged in with %1: its key can become an E2B profile, "
                                      "stored in the system keychain once you agree.")
                                       .arg(cliLogin.ownerDescription());
        m_useCliLogin = new QAction(tr("Use the E2B CLI's login…"), this);
        addButton(m_useCliLogin, QStringLiteral("useCliLoginButton"),
                  tr("Create an E2B profile with the key of the E2B CLI's login"));
        connect(m_useCliLogin, &QAction::triggered, this, &FirstRunHint::useCliLogin);
    } else if (cliLogin.exists()) {
        text += QLatin1Char(' ') + tr("The E2B CLI's login cannot be used: %1").arg(cliLogin.problem());
    }
    setMessage(Type::Information, text);
    addButton(m_profiles, QStringLiteral("hintProfilesButton"), tr("Open the profiles"));
    addButton(m_dismiss, QStringLiteral("dismissHintButton"), tr("Dismiss the first-run hint"));
    connect(m_profiles, &QAction::triggered, this, [this] {
        markDone();
        hide();
        Q_EMIT manageProfilesRequested();
    });
    connect(m_dismiss, &QAction::triggered, this, [this] {
        markDone();
        hide();
    });
    // After an import the message is the outcome; closing it just hides it.
    connect(this, &MessageBanner::closed, this, &FirstRunHint::hide);
}

bool FirstRunHint::isPending(const QSettings &settings)
{
    return !settings.value(doneKey, false).toBool();
}

void FirstRunHint::addButton(QAction *action, const QString &objectName, const QString &accessibleName)
{
    action->setToolTip(accessibleName);
    addAction(action);
    const auto buttons = findChildren<QToolButton *>();
    for (QToolButton *button : buttons) {
        if (button->defaultAction() == action) {
            button->setObjectName(objectName);
            button->setAccessibleName(accessibleName);
        }
    }
}

void FirstRunHint::markDone()
{
    m_settings->setValue(doneKey, true);
    m_settings->sync();
}

void FirstRunHint::useEnvironmentKey()
{
    if (m_job)
        return;
    runImport(ImportKeyJob::fromEnvironment(m_profileStore, m_keys, QProcessEnvironment::systemEnvironment(), this),
              tr("the key from E2B_API_KEY"));
}

void FirstRunHint::useCliLogin()
{
    if (m_job)
        return;
    const E2bCliLogin login = E2bCliLogin::read(m_cliLoginPath);
    if (!login.isUsable()) {
        setMessage(Type::Error, login.exists() ? login.problem()
                                               : tr("The E2B CLI is no longer logged in (%1 is gone).").arg(login.path()));
        return;
    }
    askToImportCliLogin(login, this, [this, login] {
        if (m_job)
            return;
        runImport(ImportKeyJob::fromCliLogin(m_profileStore, m_keys, login, QProcessEnvironment::systemEnvironment(),
                                             this),
                  cliLoginKeyDescription(login));
    });
}

void FirstRunHint::setImportActionsEnabled(bool enabled)
{
    for (QAction *action : {m_useKey, m_useCliLogin}) {
        if (action)
            action->setEnabled(enabled);
    }
}

void FirstRunHint::runImport(ImportKeyJob *job, const QString &keyDescription)
{
    m_job = job;
    setImportActionsEnabled(false);
    setMessage(Type::Information, tr("Creating an E2B profile with %1…").arg(keyDescription));
    connect(job, &Job::finished, this, [this, job, keyDescription] {
        m_job = nullptr;
        const bool haveProfile = !job->profileId().isEmpty();
        if (!haveProfile) {
            // Nothing was created: the user may try again or dismiss.
            setImportActionsEnabled(true);
            setMessage(Type::Error, tr("No E2B profile could be created: %1").arg(job->error().message()));
            Q_EMIT importFinished(false);
            return;
        }
        markDone();
        clearActions();
        setCloseButtonVisible(true);
        if (job->hasError()) {
            setMessage(Type::Error, tr("Added the profile \"%1\", but its key could not be stored: %2")
                                        .arg(job->profileName(), job->error().message()));
        } else if (!job->created()) {
            setMessage(Type::Positive, tr("The profile \"%1\" already has %2; switched to it.")
                                           .arg(job->profileName(), keyDescription));
        } else if (!job->notice().isEmpty()) {
            // No keychain: the KeyStore's own sentence says where the key went.
            setMessage(Type::Warning, tr("Added the profile \"%1\" and switched to it. %2")
                                          .arg(job->profileName(), job->notice()));
        } else {
            setMessage(Type::Positive, tr("Added the profile \"%1\" with %2, stored in the system keychain, "
                                          "and switched to it.")
                                           .arg(job->profileName(), keyDescription));
        }
        Q_EMIT profileReady(job->profileId());
        Q_EMIT importFinished(!job->hasError());
    });
    job->start();
}

} // namespace sd
