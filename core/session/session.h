#pragma once

#include "api/connectionsettings.h"
#include "creation/creationjob.h"

#include <QObject>
#include <QStringList>

#include <chrono>
#include <memory>

class QNetworkAccessManager;

namespace sd {

class CreationJournal;
class CreationRegistry;
class OrphanDetector;

/// Everything the app needs while it works with one API endpoint: the resolved
/// connection, the creation journal, the orphan detector and the creations running
/// against it. The window and the command-line mode each hold one, so both reach
/// the same journal and see the same orphans.
///
/// The journal is named after the endpoint (journalKey()), not after the route to
/// it, so `--api-url`, `--profile` and the window share one file per API.
///
/// Lifetime: a creation keeps its session (and so its journal) alive. close() cancels
/// what runs, waits for the rollbacks up to a bound, reports closed() and deletes the
/// session; release() lets running creations finish and then deletes it.
class Session : public QObject
{
    Q_OBJECT

public:
    /// `network` is not owned and must outlive the session.
    Session(QNetworkAccessManager *network, ConnectionSettings connection, QObject *parent = nullptr);
    ~Session() override;

    /// The journal's name for an API: scheme, host (lower case) and port, the default
    /// port filled in, path and query ignored: "https-api.e2b.app-443".
    static QString journalKey(const QUrl &apiUrl);

    /// Opens the journal in `directory` (empty: CreationJournal::defaultDirectory()).
    /// A journal kept under one of `legacyKeys` (journals were once named after the
    /// profile) becomes this endpoint's journal when it has none yet. Returns false
    /// with errorString() when the journal cannot be used.
    bool open(const QString &directory = {}, const QStringList &legacyKeys = {});
    QString errorString() const { return m_error; }
    QStringList warnings() const;

    QNetworkAccessManager *network() const { return m_network; }
    const ConnectionSettings &connection() const { return m_connection; }
    /// Null until open() succeeded.
    CreationJournal *journal() const { return m_journal.get(); }
    OrphanDetector *detector() const { return m_detector; }
    CreationRegistry *creations() const { return m_creations; }

    /// What a CreationJob started in this session takes.
    CreationContext creationContext() const;
    /// Tracks `job` so that quitting waits for it; with `own`, the session also becomes
    /// its parent (a dialog that goes away hands its running job over this way).
    void track(CreationJob *job, bool own = false);

    /// Cancels every running creation, waits up to `timeout` for their rollbacks,
    /// then emits closed() (naming the creations left unfinished) and deletes itself.
    void close(std::chrono::milliseconds timeout = std::chrono::seconds(60));
    /// Deletes the session once no creation runs (at once when none does).
    void release();

Q_SIGNALS:
    /// What close() still waits for, in words ("creation c-1: Rolling back").
    void closing(const QStringList &waitingFor);
    void closed(const QStringList &leftBehind);

private:
    void deleteWhenIdle();

    QNetworkAccessManager *m_network;
    ConnectionSettings m_connection;
    mutable QString m_installId; ///< read from the settings by the first creationContext()
    std::unique_ptr<CreationJournal> m_journal;
    OrphanDetector *m_detector = nullptr;
    CreationRegistry *m_creations;
    QString m_error;
    bool m_released = false;
    bool m_closing = false;
};

} // namespace sd
