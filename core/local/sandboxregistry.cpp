#include "local/sandboxregistry.h"

#include "common/logging.h"

#include <QRandomGenerator>

#include <limits>

namespace sd::local {

namespace {

QString randomString(int length, QLatin1StringView alphabet)
{
    QString out;
    out.reserve(length);
    auto *random = QRandomGenerator::system();
    for (int i = 0; i < length; ++i)
        out.append(QLatin1Char(alphabet.at(random->bounded(int(alphabet.size())))));
    return out;
}

constexpr QLatin1StringView kIdAlphabet("abcdefghijklmnopqrstuvwxyz0123456789");
constexpr QLatin1StringView kHexAlphabet("0123456789abcdef");

std::pair<qint64, quint64> expiryKey(const SandboxRecord &record)
{
    return { record.endAt.toMSecsSinceEpoch(), record.sequence };
}

} // namespace

QString killReasonName(KillReason reason)
{
    switch (reason) {
    case KillReason::Requested:
        return QStringLiteral("killed");
    case KillReason::Expired:
        return QStringLiteral("expired");
    case KillReason::Shutdown:
        return QStringLiteral("shutdown");
    }
    return {};
}

QString sandboxStateName(SandboxState state)
{
    return state == SandboxState::Paused ? QStringLiteral("paused") : QStringLiteral("running");
}

SandboxRegistry::SandboxRegistry(QObject *parent)
    : QObject(parent)
    , m_clock([] { return QDateTime::currentDateTimeUtc(); })
    , m_clientId(randomString(8, kHexAlphabet))
{
    m_expiryTimer.setSingleShot(true);
    m_expiryTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_expiryTimer, &QTimer::timeout, this, &SandboxRegistry::expireDue);
}

SandboxRegistry::~SandboxRegistry()
{
    for (const auto &runtime : std::as_const(m_runtimes))
        delete runtime.data();
    for (const auto &runtime : std::as_const(m_dyingRuntimes))
        delete runtime.data();
}

void SandboxRegistry::setClock(Clock clock)
{
    m_clock = std::move(clock);
    scheduleExpiry();
}

QDateTime SandboxRegistry::now() const { return m_clock(); }

const QList<LocalTemplate> &SandboxRegistry::templates()
{
    static const QList<LocalTemplate> list = [] {
        const QDateTime created = QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
        return QList<LocalTemplate> {
            { QStringLiteral("base"), QStringLiteral("base"), 2, 512, 1024,
                QString::fromLatin1(kEnvdVersion), QStringLiteral("local-base-1"), created },
            { QStringLiteral("mcp-gateway"), QStringLiteral("mcp-gateway"), 2, 512, 1024,
                QString::fromLatin1(kEnvdVersion), QStringLiteral("local-mcp-gateway-1"), created },
        };
    }();
    return list;
}

const LocalTemplate *SandboxRegistry::findTemplate(const QString &idOrAlias)
{
    for (const LocalTemplate &t : templates()) {
        if (t.templateId == idOrAlias || t.alias == idOrAlias)
            return &t;
    }
    return nullptr;
}

int SandboxRegistry::effectiveTimeout(int seconds)
{
    return seconds <= 0 ? kDefaultTimeoutSec : qMin(seconds, kMaxTimeoutSec);
}

QString SandboxRegistry::newSandboxId() const
{
    QString id;
    do {
        id = randomString(20, kIdAlphabet);
    } while (m_sandboxes.contains(id) || m_events.contains(id));
    return id;
}

const SandboxRecord &SandboxRegistry::addRecord(
    const LocalTemplate &tmpl, const CreateParams &params, const QDateTime &startedAt)
{
    SandboxRecord record;
    record.sandboxId = newSandboxId();
    record.templateId = tmpl.templateId;
    record.alias = tmpl.alias;
    record.clientId = m_clientId;
    record.envdVersion = tmpl.envdVersion;
    record.envdAccessToken = randomString(48, kHexAlphabet);
    record.startedAt = startedAt;
    record.endAt = startedAt.addSecs(effectiveTimeout(params.timeoutSec));
    record.cpuCount = tmpl.cpuCount;
    record.memoryMB = tmpl.memoryMB;
    record.diskSizeMB = tmpl.diskSizeMB;
    record.metadata = params.metadata;
    record.envVars = params.envVars;
    record.allowInternetAccess = params.allowInternetAccess;
    record.autoPause = params.autoPause;
    record.autoResume = params.autoResume;
    record.timeoutSec = params.timeoutSec;
    record.sequence = m_nextSequence++;
    const QString id = record.sandboxId;
    const SandboxRecord &added = m_sandboxes.emplace(id, std::move(record)).first->second;
    m_listOrder.emplace(ListKey::of(added), &added);
    m_expiryOrder.emplace(expiryKey(added), &added);
    return added;
}

SandboxRecord SandboxRegistry::create(const CreateParams &params)
{
    const LocalTemplate *tmpl = findTemplate(params.templateId);
    Q_ASSERT(tmpl);
    const int timeout = effectiveTimeout(params.timeoutSec);
    const SandboxRecord record = addRecord(*tmpl, params, m_clock());

    m_events.insert(record.sandboxId, {});
    addEvent(record.sandboxId, QStringLiteral("created"),
        QStringLiteral("Sandbox created from template %1").arg(record.templateId),
        { { QStringLiteral("templateID"), record.templateId },
            { QStringLiteral("timeout"), QString::number(timeout) } });
    qCInfo(lcLocal).noquote() << "sandbox" << record.sandboxId << "created from"
                              << record.templateId << "timeout" << timeout << "s";
    pruneEvents();
    scheduleExpiry();
    Q_EMIT sandboxCreated(record.sandboxId);
    return record;
}

void SandboxRegistry::createManyForBenchmark(const CreateParams &params, int count)
{
    const LocalTemplate *tmpl = findTemplate(params.templateId);
    Q_ASSERT(tmpl);
    const QDateTime now = m_clock();
    for (int i = 0; i < count; ++i)
        addRecord(*tmpl, params, now.addMSecs(i));
    scheduleExpiry();
}

const SandboxRecord *SandboxRegistry::find(const QString &sandboxId) const
{
    const auto it = m_sandboxes.find(sandboxId);
    return it == m_sandboxes.end() ? nullptr : &it->second;
}

QList<SandboxRecord> SandboxRegistry::sandboxes() const
{
    QList<SandboxRecord> records;
    records.reserve(qsizetype(m_sandboxes.size()));
    for (const auto &[id, record] : m_sandboxes)
        records.append(record);
    return records;
}

void SandboxRegistry::visitInOrder(bool ascending, const std::optional<ListKey> &after,
    const std::function<bool(const SandboxRecord &)> &visit) const
{
    if (ascending) {
        auto it = after ? m_listOrder.upper_bound(*after) : m_listOrder.begin();
        for (; it != m_listOrder.end(); ++it) {
            if (!visit(*it->second))
                return;
        }
        return;
    }
    // Descending: everything strictly before `after`, newest first.
    auto it = after ? std::make_reverse_iterator(m_listOrder.lower_bound(*after))
                    : m_listOrder.rbegin();
    for (; it != m_listOrder.rend(); ++it) {
        if (!visit(*it->second))
            return;
    }
}

bool SandboxRegistry::kill(const QString &id, KillReason reason)
{
    const QString sandboxId = id; // `id` may be the record's own, which ends below
    const auto found = m_sandboxes.find(sandboxId);
    if (found == m_sandboxes.end())
        return false;
    m_listOrder.erase(ListKey::of(found->second));
    if (found->second.state == SandboxState::Paused)
        --m_pausedCount;
    else
        m_expiryOrder.erase(expiryKey(found->second));
    const QString event = killReasonName(reason);
    const QString message = reason == KillReason::Expired
        ? QStringLiteral("Sandbox expired at its end time")
        : reason == KillReason::Shutdown ? QStringLiteral("Sandbox killed: server shutting down")
                                         : QStringLiteral("Sandbox killed");
    addEvent(sandboxId, event, message);
    m_sandboxes.erase(found);
    m_ended.emplace_back(m_clock(), sandboxId);
    qCInfo(lcLocal).noquote() << "sandbox" << sandboxId << event;
    Q_EMIT sandboxKilled(sandboxId, reason);
    if (QObject *runtime = m_runtimes.take(sandboxId)) {
        runtime->deleteLater();
        // At shutdown no event loop runs those deletions; the destructor does.
        // Pruned once it has doubled, not at every kill: killing them all stays linear.
        if (m_dyingRuntimes.size() >= m_dyingPruneAt) {
            m_dyingRuntimes.removeIf([](const QPointer<QObject> &gone) { return gone.isNull(); });
            m_dyingPruneAt = std::max<qsizetype>(64, 2 * m_dyingRuntimes.size());
        }
        m_dyingRuntimes.append(runtime);
    }
    scheduleExpiry();
    return true;
}

void SandboxRegistry::killAll(KillReason reason)
{
    QStringList ids;
    for (const auto &[id, record] : m_sandboxes)
        ids.append(id);
    for (const QString &id : ids)
        kill(id, reason);
}

SandboxRegistry::Result SandboxRegistry::setTimeout(const QString &sandboxId, int seconds)
{
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return Result::NotFound;
    SandboxRecord &record = it->second;
    const int timeout = effectiveTimeout(seconds);
    if (record.state == SandboxState::Paused)
        record.pausedRemainingMs = qint64(timeout) * 1000;
    else
        setLifetime(record, SandboxState::Running, m_clock().addSecs(timeout));
    const QDateTime endAt = record.endAt;
    addEvent(sandboxId, QStringLiteral("timeout changed"),
        QStringLiteral("Sandbox timeout set to %1 s").arg(timeout),
        { { QStringLiteral("timeout"), QString::number(timeout) },
            { QStringLiteral("endAt"), endAt.toString(Qt::ISODateWithMs) } });
    scheduleExpiry();
    Q_EMIT sandboxTimeoutChanged(sandboxId, endAt);
    return Result::Ok;
}

SandboxRegistry::Result SandboxRegistry::pause(const QString &sandboxId, bool atTimeout)
{
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return Result::NotFound;
    SandboxRecord &record = it->second;
    if (record.state == SandboxState::Paused)
        return Result::Conflict;
    setLifetime(record, SandboxState::Paused, record.endAt);
    ++m_pausedCount;
    record.pausedRemainingMs = qMax<qint64>(0, m_clock().msecsTo(record.endAt));
    addEvent(sandboxId, QStringLiteral("paused"),
        atTimeout ? QStringLiteral("Sandbox paused at its end time (autoPause)")
                  : QStringLiteral("Sandbox paused"),
        { { QStringLiteral("remainingMs"), QString::number(record.pausedRemainingMs) } });
    if (atTimeout)
        qCInfo(lcLocal).noquote() << "sandbox" << sandboxId << "paused at its end time";
    scheduleExpiry();
    Q_EMIT sandboxPaused(sandboxId);
    return Result::Ok;
}

SandboxRegistry::Result SandboxRegistry::resume(
    const QString &sandboxId, std::optional<int> timeoutSec)
{
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return Result::NotFound;
    SandboxRecord &record = it->second;
    if (record.state != SandboxState::Paused)
        return Result::Conflict;
    qint64 ms
        = timeoutSec ? qint64(effectiveTimeout(*timeoutSec)) * 1000 : record.pausedRemainingMs;
    if (ms <= 0)
        ms = qint64(kDefaultTimeoutSec) * 1000;
    resumeUntil(record, m_clock().addMSecs(ms), QStringLiteral("Sandbox resumed"));
    return Result::Ok;
}

SandboxRegistry::Result SandboxRegistry::resumeOnRequest(const QString &sandboxId)
{
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return Result::NotFound;
    SandboxRecord &record = it->second;
    if (record.state != SandboxState::Paused || !record.autoResume)
        return Result::Conflict;
    resumeUntil(record, m_clock().addSecs(effectiveTimeout(record.timeoutSec)),
        QStringLiteral("Sandbox resumed by a request (autoResume)"));
    return Result::Ok;
}

void SandboxRegistry::resumeUntil(
    SandboxRecord &record, const QDateTime &endAt, const QString &message)
{
    setLifetime(record, SandboxState::Running, endAt);
    --m_pausedCount;
    record.pausedRemainingMs = 0;
    const QString sandboxId = record.sandboxId;
    addEvent(sandboxId, QStringLiteral("resumed"), message,
        { { QStringLiteral("endAt"), record.endAt.toString(Qt::ISODateWithMs) } });
    scheduleExpiry();
    Q_EMIT sandboxResumed(sandboxId);
}

SandboxRegistry::ConnectResult SandboxRegistry::connectTo(const QString &sandboxId, int timeoutSec)
{
    auto it = m_sandboxes.find(sandboxId);
    if (it == m_sandboxes.end())
        return ConnectResult::NotFound;
    SandboxRecord &record = it->second;
    const QDateTime now = m_clock();
    const QDateTime wanted = now.addSecs(effectiveTimeout(timeoutSec));
    if (record.state == SandboxState::Paused) {
        const QDateTime kept = now.addMSecs(record.pausedRemainingMs);
        resumeUntil(record, qMax(kept, wanted), QStringLiteral("Sandbox resumed by connect"));
        return ConnectResult::Resumed;
    }
    if (wanted > record.endAt) {
        setLifetime(record, SandboxState::Running, wanted);
        const QDateTime endAt = record.endAt;
        addEvent(sandboxId, QStringLiteral("timeout changed"),
            QStringLiteral("Sandbox timeout extended by connect"),
            { { QStringLiteral("endAt"), endAt.toString(Qt::ISODateWithMs) } });
        scheduleExpiry();
        Q_EMIT sandboxTimeoutChanged(sandboxId, endAt);
    }
    return ConnectResult::WasRunning;
}

std::optional<QList<SandboxEvent>> SandboxRegistry::events(const QString &sandboxId) const
{
    auto it = m_events.constFind(sandboxId);
    if (it == m_events.constEnd())
        return std::nullopt;
    return *it;
}

void SandboxRegistry::addEvent(const QString &sandboxId, const QString &event,
    const QString &message, const QMap<QString, QString> &fields, const QString &level)
{
    auto it = m_events.find(sandboxId);
    if (it == m_events.end())
        return;
    SandboxEvent entry;
    entry.timestamp = m_clock();
    entry.level = level;
    entry.message = message;
    entry.fields = fields;
    entry.fields.insert(QStringLiteral("event"), event);
    entry.fields.insert(QStringLiteral("sandboxID"), sandboxId);
    it->append(entry);
}

void SandboxRegistry::setRuntime(const QString &sandboxId, QObject *runtime)
{
    if (!m_sandboxes.contains(sandboxId)) {
        delete runtime;
        return;
    }
    if (QObject *previous = m_runtimes.take(sandboxId); previous && previous != runtime)
        previous->deleteLater();
    m_runtimes.insert(sandboxId, runtime);
}

QObject *SandboxRegistry::runtime(const QString &sandboxId) const
{
    return m_runtimes.value(sandboxId).data();
}

void SandboxRegistry::setLifetime(SandboxRecord &record, SandboxState state, const QDateTime &endAt)
{
    if (record.state == SandboxState::Running)
        m_expiryOrder.erase(expiryKey(record));
    record.state = state;
    record.endAt = endAt;
    if (state == SandboxState::Running)
        m_expiryOrder.emplace(expiryKey(record), &record);
}

void SandboxRegistry::scheduleExpiry()
{
    if (m_expiryOrder.empty()) {
        m_expiryTimer.stop();
        return;
    }
    const qint64 nextMs = qMax<qint64>(0, m_clock().msecsTo(m_expiryOrder.begin()->second->endAt));
    m_expiryTimer.start(int(qMin<qint64>(nextMs, std::numeric_limits<int>::max())));
}

void SandboxRegistry::expireDue()
{
    const QDateTime now = m_clock();
    QStringList due;
    for (const auto &[key, record] : m_expiryOrder) {
        if (record->endAt > now)
            break;
        due.append(record->sandboxId);
    }
    for (const QString &id : std::as_const(due)) {
        const SandboxRecord *record = find(id);
        if (record && record->autoPause)
            pause(id, true);
        else
            kill(id, KillReason::Expired);
    }
    pruneEvents();
    scheduleExpiry();
}

void SandboxRegistry::pruneEvents()
{
    const QDateTime now = m_clock();
    while (!m_ended.empty() && m_ended.front().first.msecsTo(now) > kEventRetentionMs) {
        m_events.remove(m_ended.front().second);
        m_ended.pop_front();
    }
}

} // namespace sd::local
