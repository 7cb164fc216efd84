#include "session.h"

#include "creation/creationregistry.h"
#include "creation/installation.h"
#include "journal/creationjournal.h"
#include "orphans/orphandetector.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

namespace sd {

Session::Session(QNetworkAccessManager *network, ConnectionSettings connection, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_connection(std::move(connection))
    , m_creations(new CreationRegistry(this))
{
    connect(m_creations, &CreationRegistry::shutdownProgress, this, &Session::closing);
    connect(m_creations, &CreationRegistry::activeChanged, this, [this] {
        if (m_released)
            deleteWhenIdle();
    });
}

Session::~Session()
{
    // Jobs handed over write to the journal: they go before it (children would be
    // deleted only after the members).
    qDeleteAll(findChildren<Job *>(Qt::FindDirectChildrenOnly));
    delete m_detector;
    m_detector = nullptr;
}

QString Session::journalKey(const QUrl &apiUrl)
{
    const QString scheme = apiUrl.scheme().toLower();
    const int port = apiUrl.port(scheme == QLatin1String("https") ? 443 : 80);
    return QStringLiteral("%1-%2-%3").arg(scheme, apiUrl.host().toLower()).arg(port);
}

bool Session::open(const QString &directory, const QStringList &legacyKeys)
{
    const QString dir = directory.isEmpty() ? CreationJournal::defaultDirectory() : directory;
    const QString key = journalKey(m_connection.apiUrl);
    const QString path = CreationJournal::filePathFor(dir, key);
    if (!QFile::exists(path)) {
        // Take over a journal of this API kept under an older name or folder.
        QStringList folders { dir };
        if (directory.isEmpty())
            folders.append(CreationJournal::legacyDefaultDirectory());
        const QStringList keys = QStringList { key } + legacyKeys;
        bool moved = false;
        for (const QString &folder : folders) {
            for (const QString &oldKey : keys) {
                const QString legacy = CreationJournal::filePathFor(folder, oldKey);
                if (moved || oldKey.isEmpty() || legacy == path || !QFile::exists(legacy))
                    continue;
                QDir().mkpath(dir);
                moved = QFile::rename(legacy, path);
            }
        }
    }
    auto journal = std::make_unique<CreationJournal>(path);
    if (!journal->open()) {
        m_error = journal->errorString();
        return false;
    }
    delete m_detector;
    m_journal = std::move(journal);
    m_detector = new OrphanDetector(m_network, m_connection, m_journal.get(), this);
    return true;
}

QStringList Session::warnings() const
{
    return m_journal ? m_journal->warnings() : QStringList();
}

CreationContext Session::creationContext() const
{
    CreationContext context;
    context.network = m_network;
    context.connection = m_connection;
    context.journal = m_journal.get();
    // Made once per installation: read once, not per creation (QSettings stats its file).
    if (m_installId.isEmpty())
        m_installId = installationId();
    context.installId = m_installId;
    return context;
}

void Session::track(CreationJob *job, bool own)
{
    if (own)
        job->setParent(this);
    m_creations->add(job);
}

void Session::close(std::chrono::milliseconds timeout)
{
    if (m_closing)
        return;
    m_closing = true;
    connect(m_creations, &CreationRegistry::shutdownFinished, this,
        [this](const QStringList &leftBehind) {
            Q_EMIT closed(leftBehind);
            deleteLater();
        });
    m_creations->shutdown(timeout);
}

void Session::release()
{
    m_released = true;
    setParent(nullptr);
    deleteWhenIdle();
}

void Session::deleteWhenIdle()
{
    if (m_creations->active().isEmpty())
        deleteLater();
}

} // namespace sd
