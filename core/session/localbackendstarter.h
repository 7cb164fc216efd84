#pragma once

#include "api/connectionsettings.h"
#include "common/job.h"

#include <QElapsedTimer>
#include <QTimer>

#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace sd {

/// Finds the local backend for the "Local (this computer)" profile, starting it when
/// nothing answers.
///
///   probe GET /health ──answer──▶ read the key file ─▶ done
///        │ no answer
///        ▼
///   start sandbox-desk-local --port N (detached, the installed one beside this program)
///        ▼
///   probe every 250 ms until it answers or 20 s pass ─▶ read the key file ─▶ done
///
/// Any HTTP answer counts as "something is there", but the key (read from the file the
/// backend writes, `<GenericDataLocation>/sandbox-desk/local-api-key`) is only handed
/// out when the listener on the port belongs to this user: another local user who
/// took the port first must not collect it. The backend is started with
/// `--isolation bwrap`; what /health says is in force is kept in isolation().
class LocalBackendStarter : public Job
{
    Q_OBJECT

public:
    LocalBackendStarter(QNetworkAccessManager *network, quint16 port, QObject *parent = nullptr);
    ~LocalBackendStarter() override;

    /// Whether to start the backend when nothing answers (default true).
    void setStartAllowed(bool allowed) { m_startAllowed = allowed; }
    void setKeyFile(const QString &path) { m_keyFile = path; }
    /// Where the backend binary is looked for (default: beside this program, or where
    /// the installed command line is).
    void setBinaryDirectory(const QString &dir) { m_binaryDir = dir; }

    /// Where the backend this job starts writes its output.
    static QString logFile();
    /// Where earlier versions had it (`sandbox-desk/sandbox-desk/sandbox-desk-local.log`
    /// in the cache folder); the next start moves it to logFile().
    static QString legacyLogFile();

    /// Valid after a successful finish.
    const ConnectionSettings &settings() const { return m_settings; }
    /// True when this job started the backend (the UI says so).
    bool startedBackend() const { return m_startedBackend; }
    /// The isolation the backend reports ("bwrap", "none"); empty when it did not say.
    QString isolation() const { return m_isolation; }

    /// The uid owning the TCP listener on 127.0.0.1:`port` in `procNetTcp` (the text of
    /// /proc/net/tcp or tcp6), or -1 when there is none.
    static qint64 listenerUid(const QByteArray &procNetTcp, quint16 port);
    qint64 startedPid() const { return m_pid; }

Q_SIGNALS:
    /// Emitted when nothing answered and the backend is being started.
    void startingBackend();

protected:
    void doStart() override;
    void doCancel() override;

private:
    void probe();
    void onProbeFinished();
    void launch();
    /// Moves a log of an earlier version to logFile(), if there is none there yet.
    static void takeOverLegacyLog();
    void finishConnected();

    QNetworkAccessManager *m_network;
    quint16 m_port;
    bool m_startAllowed = true;
    QString m_keyFile;
    QString m_binaryDir;
    ConnectionSettings m_settings;
    std::unique_ptr<QNetworkReply> m_reply;
    QTimer m_retry;
    QElapsedTimer m_sinceLaunch;
    bool m_startedBackend = false;
    QString m_isolation;
    qint64 m_pid = 0;
};

} // namespace sd
