#include "error.h"

#include <QCoreApplication>

namespace sd {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("sd::Error", text);
}
} // namespace

Error Error::transport(const QString &detail)
{
    Error e;
    e.m_kind = Kind::Transport;
    e.m_detail = detail;
    return e;
}

Error Error::http(int status, const QString &serverMessage)
{
    Error e;
    e.m_kind = Kind::Http;
    e.m_httpStatus = status;
    e.m_serverMessage = serverMessage;
    return e;
}

Error Error::timeout(const QString &what)
{
    Error e;
    e.m_kind = Kind::Timeout;
    e.m_detail = what;
    return e;
}

Error Error::cancelled()
{
    Error e;
    e.m_kind = Kind::Cancelled;
    return e;
}

Error Error::badResponse(const QString &what)
{
    Error e;
    e.m_kind = Kind::BadResponse;
    e.m_detail = what;
    return e;
}

Error Error::rpc(const QString &code, const QString &serverMessage)
{
    Error e;
    e.m_kind = Kind::Rpc;
    e.m_rpcCode = code;
    e.m_serverMessage = serverMessage;
    return e;
}

Error Error::rejected(const QString &message)
{
    Error e;
    e.m_kind = Kind::Rejected;
    e.m_serverMessage = message;
    return e;
}

Error Error::journal(const QString &message)
{
    Error e;
    e.m_kind = Kind::Journal;
    e.m_serverMessage = message;
    return e;
}

Error &Error::withContext(const QString &context)
{
    m_context = context;
    return *this;
}

QString Error::message() const
{
    QString text;
    switch (m_kind) {
    case Kind::None:
        return {};
    case Kind::Transport:
        text = tr("Could not reach the server: %1").arg(m_detail);
        break;
    case Kind::Http: {
        const QString status = QString::number(m_httpStatus);
        if (m_httpStatus == 401 || m_httpStatus == 403)
            text = tr("The server refused the API key (HTTP %1)").arg(status);
        else if (m_httpStatus >= 300 && m_httpStatus < 400)
            text = tr("The server tried to redirect the request (HTTP %1)").arg(status);
        else if (m_httpStatus == 400 || m_httpStatus == 422)
            text = tr("The server rejected the request (HTTP %1)").arg(status);
        else if (m_httpStatus == 404)
            text = tr("The server did not find it (HTTP %1)").arg(status);
        else if (m_httpStatus == 409)
            text = tr("The request conflicts with the sandbox's current state (HTTP %1)").arg(status);
        else if (m_httpStatus == 429)
            text = tr("The server is limiting requests; try again shortly (HTTP %1)").arg(status);
        else if (m_httpStatus >= 500)
            text = tr("The server failed to handle the request (HTTP %1)").arg(status);
        else
            text = tr("The server answered HTTP %1").arg(status);
        if (!m_serverMessage.isEmpty())
            text += QStringLiteral(": ") + m_serverMessage;
        if (m_httpStatus == 401 || m_httpStatus == 403)
            text = joinSentences(text, tr("Check the key in the profile settings."));
        break;
    }
    case Kind::Timeout:
        text = m_detail.isEmpty() ? tr("The server did not answer in time")
                                  : tr("The server did not answer in time (%1)").arg(m_detail);
        break;
    case Kind::Cancelled:
        text = tr("Cancelled");
        break;
    case Kind::BadResponse:
        text = tr("The server sent an answer that could not be understood: %1").arg(m_detail);
        break;
    case Kind::Rpc:
        text = m_serverMessage.isEmpty() ? m_rpcCode
                                         : QStringLiteral("%1 (%2)").arg(m_serverMessage, m_rpcCode);
        break;
    case Kind::Rejected:
    case Kind::Journal:
        text = m_serverMessage;
        break;
    }
    return m_context.isEmpty() ? text : m_context + QStringLiteral(": ") + text;
}

QString joinSentences(const QString &first, const QString &second)
{
    static const QString ends = QStringLiteral(".!?");
    const bool ended = !first.isEmpty() && ends.contains(first.back());
    return first + (ended ? QStringLiteral(" ") : QStringLiteral(". ")) + second;
}

} // namespace sd
