#pragma once

#include <QString>

namespace sd {

/// What went wrong in a job, as a value. `message()` is the sentence a user reads;
/// `detail()` is raw context for logs. Neither ever holds an API key or token.
class Error
{
public:
    enum class Kind {
        None,
        Transport,   ///< no answer: refused, reset, DNS, TLS
        Http,        ///< the server answered with an error status
        Timeout,     ///< no answer within the job's time limit
        Cancelled,   ///< the caller cancelled
        BadResponse, ///< the answer could not be understood
        Rpc,         ///< an envd (Connect RPC) error with its code
        Rejected,    ///< input refused before anything was sent
        Journal,     ///< the creation journal could not be written (disk full, I/O error)
    };

    Error() = default;

    static Error transport(const QString &detail);
    static Error http(int status, const QString &serverMessage);
    static Error timeout(const QString &what);
    static Error cancelled();
    static Error badResponse(const QString &what);
    static Error rpc(const QString &code, const QString &serverMessage);
    static Error rejected(const QString &message);
    /// `message` names the journal file and the system's reason.
    static Error journal(const QString &message);

    Kind kind() const { return m_kind; }
    bool isError() const { return m_kind != Kind::None; }
    explicit operator bool() const { return isError(); }

    int httpStatus() const { return m_httpStatus; }
    /// The Connect error code (`not_found`, `deadline_exceeded`, ...) for Kind::Rpc.
    QString rpcCode() const { return m_rpcCode; }
    /// The server's own message (E2B's `message`, Connect's `message`), possibly empty.
    QString serverMessage() const { return m_serverMessage; }
    QString detail() const { return m_detail; }

    /// A sentence a user understands, e.g. "The server did not find it (HTTP 404):
    /// sandbox not found".
    QString message() const;

    /// Adds context for the user ("Could not list sandboxes") shown before the message.
    Error &withContext(const QString &context);
    QString context() const { return m_context; }

private:
    Kind m_kind = Kind::None;
    int m_httpStatus = 0;
    QString m_rpcCode;
    QString m_serverMessage;
    QString m_detail;
    QString m_context;
};

/// `first` and `second` as two sentences: a full stop after `first` unless it ends one.
QString joinSentences(const QString &first, const QString &second);

} // namespace sd
