#include "profilesdialog.h"

#include "cliloginprompt.h"
#include "session/localbackendstarter.h"

#include "api/sandboxjobs.h"
#include "profiles/e2bclilogin.h"
#include "profiles/importkeyjob.h"
#include "profiles/keystore.h"
#include "profiles/profilestore.h"
#include "profiles/saveprofilejob.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace sd {

ProfilesDialog::ProfilesDialog(ProfileStore *profiles, KeyStore *keys, QNetworkAccessManager *network,
                               QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_keys(keys)
    , m_network(network)
    , m_list(new QListWidget(this))
    , m_name(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_domain(new QLineEdit(this))
    , m_apiUrl(new QLineEdit(this))
    , m_sandboxUrl(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_keyHint(new QLabel(this))
    , m_result(new QLabel(this))
    , m_save(new QPushButton(tr("&Save"), this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_test(new QPushButton(tr("&Test connection"), this))
    , m_importCliLogin(new QPushButton(tr("Use the E2B &CLI's login…"), this))
    , m_cliLogin(new QLabel(this))
    , m_cliLoginPath(E2bCliLogin::defaultPath())
{
    setObjectName(QStringLiteral("profilesDialog"));
    setWindowTitle(tr("Profiles"));
    m_list->setAccessibleName(tr("Profiles"));
    m_list->setMinimumWidth(200);
    auto *add = new QPushButton(tr("&Add"), this);
    add->setAccessibleName(tr("Add a profile"));
    connect(add, &QPushButton::clicked, this, [this] {
        m_list->clearSelection();
        showProfile({});
        m_name->setFocus();
    });
    auto *left = new QVBoxLayout;
    left->addWidget(m_list, 1);
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(m_remove);
    left->addLayout(listButtons);
    m_importCliLogin->setObjectName(QStringLiteral("importCliLoginButton"));
    m_importCliLogin->setAccessibleName(tr("Create an E2B profile with the key of the E2B CLI's login"));
    m_cliLogin->setObjectName(QStringLiteral("cliLoginLabel"));
    m_cliLogin->setWordWrap(true);
    m_cliLogin->setMaximumWidth(260);
    left->addWidget(m_importCliLogin);
    left->addWidget(m_cliLogin);
    connect(m_importCliLogin, &QPushButton::clicked, this, &ProfilesDialog::importCliLogin);

    m_kind->addItem(tr("E2B (cloud)"), int(Profile::Kind::E2B));
    m_kind->addItem(tr("Self-hosted E2B"), int(Profile::Kind::Custom));
    m_kind->setAccessibleName(tr("Kind"));
    m_name->setAccessibleName(tr("Name"));
    m_domain->setAccessibleName(tr("Domain"));
    m_domain->setPlaceholderText(QStringLiteral("e2b.app"));
    m_apiUrl->setAccessibleName(tr("API URL"));
    m_apiUrl->setPlaceholderText(QStringLiteral("https://api.example.com"));
    m_sandboxUrl->setAccessibleName(tr("Sandbox URL"));
    m_sandboxUrl->setPlaceholderText(tr("optional: one URL for every sandbox's envd"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setAccessibleName(tr("API key"));
    m_key->setObjectName(QStringLiteral("apiKeyEdit"));
    m_keyHint->setWordWrap(true);
    m_keyHint->setEnabled(false);
    m_result->setWordWrap(true);
    m_result->setObjectName(QStringLiteral("testResult"));
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setTextFormat(Qt::PlainText);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &ProfilesDialog::updateKindFields);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Kind:"), m_kind);
    form->addRow(tr("&Domain:"), m_domain);
    form->addRow(tr("API &URL:"), m_apiUrl);
    form->addRow(tr("Sa&ndbox URL:"), m_sandboxUrl);
    form->addRow(tr("API &key:"), m_key);
    form->addRow(QString(), m_keyHint);
    auto *formButtons = new QHBoxLayout;
    formButtons->addWidget(m_test);
    formButtons->addStretch();
    formButtons->addWidget(m_save);
    auto *right = new QVBoxLayout;
    right->addLayout(form);
    right->addWidget(m_result);
    right->addStretch();
    right->addLayout(formButtons);

    auto *columns = new QHBoxLayout;
    columns->addLayout(left);
    columns->addLayout(right, 1);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(close);

    connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        showProfile(item ? item->data(Qt::UserRole).toString() : QString());
    });
    connect(m_save, &QPushButton::clicked, this, &ProfilesDialog::save);
    connect(m_remove, &QPushButton::clicked, this, &ProfilesDialog::remove);
    connect(m_test, &QPushButton::clicked, this, &ProfilesDialog::testConnection);
    reloadList();
    showProfile({});
    updateCliLogin();
    resize(760, 440);
}

void ProfilesDialog::setCliLoginPath(const QString &path)
{
    m_cliLoginPath = path;
    updateCliLogin();
}

void ProfilesDialog::updateCliLogin()
{
    // Only what the file says about itself is kept; the key is read again on use.
    const E2bCliLogin login = E2bCliLogin::read(m_cliLoginPath);
    m_importCliLogin->setVisible(login.exists());
    m_cliLogin->setVisible(login.exists());
    m_importCliLogin->setEnabled(login.isUsable() && !m_importJob);
    m_cliLogin->setText(login.isUsable() ? tr("The E2B CLI is logged in with %1.").arg(login.ownerDescription())
                                         : login.problem());
}

void ProfilesDialog::importCliLogin()
{
    const E2bCliLogin login = E2bCliLogin::read(m_cliLoginPath);
    if (!login.isUsable() || m_importJob) {
        updateCliLogin();
        return;
    }
    askToImportCliLogin(login, this, [this, login] {
        if (m_importJob)
            return;
        auto *job = ImportKeyJob::fromCliLogin(m_profiles, m_keys, login, QProcessEnvironment::systemEnvironment(),
                                               this);
        m_importJob = job;
        m_importCliLogin->setEnabled(false);
        const QString keyDescription = cliLoginKeyDescription(login);
        connect(job, &Job::finished, this, [this, job, keyDescription] {
            m_importJob = nullptr;
            updateCliLogin();
            const QString id = job->profileId();
            if (id.isEmpty()) {
                showResult(tr("No E2B profile could be created: %1").arg(job->error().message()),
                    Tone::Failure);
                return;
            }
            reloadList(id);
            showProfile(id);
            if (job->hasError())
                showResult(tr("Added the profile \"%1\", but its key could not be stored: %2")
                               .arg(job->profileName(), job->error().message()));
            else if (!job->created())
                showResult(tr("The profile \"%1\" already has %2.")
                               .arg(job->profileName(), keyDescription));
            else if (!job->notice().isEmpty())
                showResult(
                    tr("Added the profile \"%1\". %2").arg(job->profileName(), job->notice()));
            else
                showResult(tr("Added the profile \"%1\" with %2, stored in the system keychain.")
                               .arg(job->profileName(), keyDescription));
            Q_EMIT profileSaved(id);
        });
        job->start();
    });
}

void ProfilesDialog::showResult(const QString &text, Tone tone)
{
    QPalette palette = this->palette();
    switch (tone) {
    case Tone::Neutral:
        break;
    case Tone::Success:
        palette.setColor(QPalette::WindowText, QColor(0x2e, 0x9e, 0x4f));
        break;
    case Tone::Warning:
        palette.setColor(QPalette::WindowText, QColor(0xb3, 0x74, 0x1a));
        break;
    case Tone::Failure:
        palette.setColor(QPalette::WindowText, QColor(0xd6, 0x3b, 0x3b));
        break;
    }
    m_result->setPalette(palette);
    m_result->setText(text);
}

QString ProfilesDialog::testResult() const
{
    return m_result->text();
}

void ProfilesDialog::reloadList(const QString &selectId)
{
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const Profile &profile : m_profiles->profiles()) {
        auto *item = new QListWidgetItem(profile.name, m_list);
        item->setData(Qt::UserRole, profile.id);
        if (profile.id == selectId)
            m_list->setCurrentItem(item);
    }
}

void ProfilesDialog::showProfile(const QString &profileId)
{
    m_editingId = profileId;
    const std::optional<Profile> profile = profileId.isEmpty() ? std::nullopt : m_profiles->profile(profileId);
    const Profile shown = profile.value_or(Profile::e2b(QString()));
    m_name->setText(shown.name);
    // "This computer" is a kind only the Local profile has; a new profile cannot take it.
    const int localKind = m_kind->findData(int(Profile::Kind::Local));
    if (shown.isLocal() && localKind < 0)
        m_kind->addItem(tr("This computer's backend"), int(Profile::Kind::Local));
    else if (!shown.isLocal() && localKind >= 0)
        m_kind->removeItem(localKind);
    m_kind->setCurrentIndex(m_kind->findData(int(shown.kind)));
    m_domain->setText(shown.kind == Profile::Kind::E2B || !shown.domain.isEmpty() ? shown.domain : QString());
    m_apiUrl->setText(shown.apiUrl.toString());
    m_sandboxUrl->setText(shown.sandboxUrl.toString());
    m_key->clear();
    m_key->setPlaceholderText(profile ? tr("stored in the keychain: leave empty to keep") : tr("e2b_…"));
    m_keyHint->setText(m_keys->availability() == KeyStore::Availability::Unavailable
                           ? KeyStore::unavailableMessage()
                           : tr("The key goes to the system keychain, never to a settings file."));
    // Local is always there: only its port can change, and its key is the backend's own.
    const bool local = shown.isLocal();
    m_name->setReadOnly(local);
    m_kind->setEnabled(!local);
    m_key->setEnabled(!local);
    if (local) {
        m_key->setPlaceholderText(QString());
        m_keyHint->setText(tr("The local backend keeps its own key in %1; only the port in the API URL can change.")
                               .arg(ProfileStore::localKeyFilePath()));
    }
    m_remove->setEnabled(profile.has_value() && !local);
    m_result->clear();
    updateKindFields();
}

void ProfilesDialog::updateKindFields()
{
    const auto kind = Profile::Kind(m_kind->currentData().toInt());
    m_apiUrl->setEnabled(kind != Profile::Kind::E2B);
    m_sandboxUrl->setEnabled(kind == Profile::Kind::Custom);
    m_domain->setEnabled(kind != Profile::Kind::Local);
}

Profile ProfilesDialog::profileFromForm() const
{
    const auto kind = Profile::Kind(m_kind->currentData().toInt());
    if (kind == Profile::Kind::Local) {
        // Anything but a port on this computer fails validate() with a sentence.
        const QUrl url(m_apiUrl->text().trimmed());
        const bool loopback = url.scheme() == QLatin1String("http")
            && (url.host() == QLatin1String("127.0.0.1") || url.host() == QLatin1String("localhost"))
            && url.port() > 0;
        Profile local = Profile::local(loopback ? quint16(url.port()) : Profile::defaultLocalPort);
        if (!loopback)
            local.apiUrl = url;
        return local;
    }
    Profile profile = kind == Profile::Kind::Custom
                          ? Profile::custom(m_name->text().trimmed(), QUrl(m_apiUrl->text().trimmed()),
                                            QUrl(m_sandboxUrl->text().trimmed()))
                          : Profile::e2b(m_name->text().trimmed(), m_domain->text().trimmed().isEmpty()
                                                                       ? QStringLiteral("e2b.app")
                                                                       : m_domain->text().trimmed());
    if (kind == Profile::Kind::Custom)
        profile.domain = m_domain->text().trimmed();
    profile.id = m_editingId;
    return profile;
}

void ProfilesDialog::save()
{
    const Profile profile = profileFromForm();
    if (const QString problem = profile.validate(); !problem.isEmpty()) {
        showResult(problem, Tone::Failure);
        return;
    }
    const QString key = m_key->text().trimmed();
    auto *job = new SaveProfileJob(m_profiles, m_keys, profile, key, this);
    m_save->setEnabled(false);
    const QString cleartext = profile.connectionSettings().cleartextWarning();
    connect(job, &Job::finished, this, [this, job, typedKey = !key.isEmpty(), cleartext] {
        m_save->setEnabled(true);
        const QString id = job->profileId();
        if (id.isEmpty()) {
            showResult(job->error().message(), Tone::Failure);
            return;
        }
        m_key->clear();
        reloadList(id);
        if (job->hasError())
            showResult(
                tr("Saved, but the key could not be stored: %1").arg(job->error().message()));
        else if (!job->notice().isEmpty())
            showResult(job->notice());
        else if (!cleartext.isEmpty())
            showResult(tr("Saved. %1").arg(cleartext), Tone::Warning);
        else
            showResult(typedKey ? tr("Saved; the key is in the keychain.") : tr("Saved."));
        Q_EMIT profileSaved(id);
    });
    job->start();
}

void ProfilesDialog::remove()
{
    if (m_editingId.isEmpty())
        return;
    const QString id = m_editingId;
    m_profiles->remove(id);
    m_keys->deleteKey(id)->start();
    reloadList();
    showProfile({});
    showResult(tr("Removed."));
}

void ProfilesDialog::testConnection()
{
    if (m_testJob)
        return;
    const Profile profile = profileFromForm();
    if (const QString problem = profile.validate(); !problem.isEmpty()) {
        showResult(problem, Tone::Failure);
        return;
    }
    if (profile.isLocal()) {
        // The key is the backend's own, read from its key file once the port is known
        // to be held by this user's backend; a test starts nothing.
        auto *local = new LocalBackendStarter(m_network, profile.localPort(), this);
        local->setStartAllowed(false);
        m_testJob = local;
        m_test->setEnabled(false);
        connect(local, &Job::finished, this, [this, local] {
            m_test->setEnabled(true);
            if (local->hasError())
                showResult(local->error().message(), Tone::Failure);
            else
                testWith(local->settings());
        });
        local->start();
        return;
    }
    ConnectionSettings settings = profile.connectionSettings();
    settings.apiKey = m_key->text().trimmed();
    if (!settings.apiKey.isEmpty()) {
        testWith(settings);
        return;
    }
    if (m_editingId.isEmpty()) {
        showResult(tr("Type the API key to test it."));
        return;
    }
    // A saved profile's key: the one kept for this session, else the keychain's.
    auto *read = m_keys->readKey(m_editingId);
    read->setParent(this);
    m_testJob = read;
    m_test->setEnabled(false);
    showResult(tr("Reading the key from the keychain…"));
    connect(read, &Job::finished, this, [this, read, settings]() mutable {
        m_test->setEnabled(true);
        if (read->hasError()) {
            showResult(
                tr("The key could not be read from the keychain: %1").arg(read->error().message()),
                Tone::Failure);
            return;
        }
        if (!read->found()) {
            showResult(tr("No key is stored for this profile: type the API key to test it."));
            return;
        }
        settings.apiKey = read->key();
        testWith(settings);
    });
    read->start();
}

void ProfilesDialog::testWith(const ConnectionSettings &settings)
{
    // One page of one sandbox: proves the URL answers and accepts the key.
    SandboxFilter filter;
    filter.pageSize = 1;
    filter.followPages = false;
    auto *job = new ListSandboxesJob(m_network, settings, filter, this);
    job->setTimeout(std::chrono::seconds(15));
    m_testJob = job;
    m_test->setEnabled(false);
    showResult(tr("Testing…"));
    connect(job, &Job::finished, this, [this, job, cleartext = settings.cleartextWarning()] {
        m_test->setEnabled(true);
        if (job->hasError())
            showResult(job->error().message(), Tone::Failure);
        else if (!cleartext.isEmpty())
            showResult(
                tr("Connected: the server accepted the key. %1").arg(cleartext), Tone::Warning);
        else
            showResult(tr("Connected: the server accepted the key."), Tone::Success);
    });
    job->start();
}

} // namespace sd
