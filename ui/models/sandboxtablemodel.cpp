#include "sandboxtablemodel.h"

#include "common/logging.h"

#include <QColor>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QIcon>
#include <QLocale>
#include <QPainter>
#include <QPalette>
#include <QPen>
#include <QPixmap>

#include <algorithm>
#include <limits>

namespace sd {

namespace {

QColor stateColor(SandboxTableModel::DisplayState state)
{
    switch (state) {
    case SandboxTableModel::DisplayState::Running:
        return QColor(0x2e, 0x9e, 0x4f);
    case SandboxTableModel::DisplayState::Paused:
        return QColor(0xd0, 0x8c, 0x16);
    case SandboxTableModel::DisplayState::Orphan:
        return QColor(0xd6, 0x3b, 0x3b);
    }
    return {};
}

// A dot in `color` at the sizes a view asks for: filled, or as a ring.
QIcon paintedDot(const QColor &color, bool ring)
{
    QIcon icon;
    for (int size : { 12, 16, 24, 32 }) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        const qreal pen = ring ? std::max(1.5, size / 8.0) : 0.0;
        painter.setPen(ring ? QPen(color, pen) : QPen(Qt::NoPen));
        painter.setBrush(ring ? QBrush(Qt::NoBrush) : QBrush(color));
        const qreal margin = size / 5.0 + pen / 2;
        painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

// A filled dot in the state's colour; painted once per state and shared.
QIcon stateIcon(SandboxTableModel::DisplayState state)
{
    static QIcon icons[3];
    QIcon &icon = icons[int(state)];
    if (icon.isNull())
        icon = paintedDot(stateColor(state), false);
    return icon;
}

// A ring in the orphan colour: a suspected orphan may be someone else's sandbox,
// so it is not drawn as the certain one's filled dot.
QIcon suspectedOrphanIcon()
{
    static const QIcon icon = paintedDot(stateColor(SandboxTableModel::DisplayState::Orphan), true);
    return icon;
}

QIcon orphanIcon()
{
    static const QIcon icon = [] {
        QIcon fromResource(QStringLiteral(":/icons/orphan.svg"));
        if (!fromResource.availableSizes().isEmpty() || !fromResource.pixmap(16).isNull())
            return fromResource;
        return stateIcon(SandboxTableModel::DisplayState::Orphan);
    }();
    return icon;
}

QString formatMemory(int megabytes)
{
    if (megabytes >= 1024 && megabytes % 1024 == 0)
        return SandboxTableModel::tr("%1 GiB").arg(megabytes / 1024);
    if (megabytes >= 1024)
        return SandboxTableModel::tr("%1 GiB").arg(QLocale().toString(megabytes / 1024.0, 'f', 1));
    return SandboxTableModel::tr("%1 MiB").arg(megabytes);
}

// The sandbox's own state stays in view, and an orphan says whether it is certain,
// as the detail pane and the command line's --list do.
QString stateText(const Sandbox &sandbox, const OrphanFlag *orphan)
{
    const QString state = sandbox.state == SandboxState::Paused ? SandboxTableModel::tr("paused")
                                                                : SandboxTableModel::tr("running");
    if (!orphan)
        return state;
    return orphan->suspected ? SandboxTableModel::tr("%1 · suspected orphan").arg(state)
                             : SandboxTableModel::tr("%1 · orphan").arg(state);
}

} // namespace

SandboxTableModel::SandboxTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
    m_countdown.setInterval(1000);
    connect(&m_countdown, &QTimer::timeout, this, &SandboxTableModel::tick);
}

int SandboxTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SandboxTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int SandboxTableModel::rowOf(const QString &sandboxId) const
{
    const Row *row = m_rowById.value(sandboxId);
    return row ? row->number : -1;
}

const Sandbox *SandboxTableModel::sandbox(const QString &sandboxId) const
{
    const Row *row = m_rowById.value(sandboxId);
    return row ? &row->sandbox : nullptr;
}

std::optional<OrphanFlag> SandboxTableModel::orphanFlag(const QString &sandboxId) const
{
    const auto it = m_orphans.constFind(sandboxId);
    if (it == m_orphans.constEnd())
        return std::nullopt;
    return *it;
}

SandboxTableModel::DisplayState SandboxTableModel::displayState(int row) const
{
    const Sandbox &s = sandboxAt(row);
    if (m_orphans.contains(s.sandboxId))
        return DisplayState::Orphan;
    return s.state == SandboxState::Paused ? DisplayState::Paused : DisplayState::Running;
}

int SandboxTableModel::count(DisplayState state) const
{
    switch (state) {
    case DisplayState::Running:
        return m_runningCount;
    case DisplayState::Paused:
        return m_pausedCount;
    case DisplayState::Orphan:
        break;
    }
    int orphans = 0; // flags are few; rows may be 10,000
    for (auto it = m_orphans.keyBegin(); it != m_orphans.keyEnd(); ++it)
        orphans += m_rowById.contains(*it);
    return orphans;
}

void SandboxTableModel::countRow(const Sandbox &sandbox, int delta)
{
    (sandbox.state == SandboxState::Running ? m_runningCount : m_pausedCount) += delta;
}

QStringList SandboxTableModel::orphanIds() const
{
    QStringList ids;
    for (const auto &row : m_rows) {
        if (m_orphans.contains(row->sandbox.sandboxId))
            ids.append(row->sandbox.sandboxId);
    }
    return ids;
}

namespace {
/// A key or value as compactMetadata() shows it: escaped, and quoted when it holds
/// what separates entries (`a="1, b=2"` is one entry, not two) or is blank.
QString compactPart(const QString &text)
{
    const QString safe = terminalSafe(text, false);
    const bool plain = !safe.isEmpty() && !safe.front().isSpace() && !safe.back().isSpace()
        && std::none_of(safe.cbegin(), safe.cend(), [](QChar c) {
               return c == QLatin1Char(',') || c == QLatin1Char('=') || c == QLatin1Char('"');
           });
    if (plain)
        return safe;
    QString quoted = safe;
    quoted.replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}
} // namespace

QString SandboxTableModel::compactMetadata(const Metadata &metadata)
{
    QString text;
    for (auto it = metadata.begin(); it != metadata.end(); ++it) {
        // Sandbox Desk's own tags (creation id, install id) are noise in a list;
        // the tooltip and the detail pane still show them.
        if (it.key().startsWith(QLatin1String("sandbox-desk.")))
            continue;
        if (!text.isEmpty())
            text += QLatin1String(", ");
        // Whoever created the sandbox wrote these: no control or reordering character,
        // and no entry that reads as two.
        text += compactPart(it.key()) + QLatin1Char('=') + compactPart(it.value());
    }
    return text;
}

QString SandboxTableModel::formatDuration(qint64 seconds)
{
    if (seconds < 0)
        seconds = 0;
    const qint64 days = seconds / 86400;
    const qint64 hours = (seconds % 86400) / 3600;
    const qint64 minutes = (seconds % 3600) / 60;
    const qint64 secs = seconds % 60;
    // Units on every part: "16:38:50" would read as a time of day.
    if (days > 0)
        return tr("%1 d %2 h").arg(days).arg(hours);
    if (hours > 0)
        return tr("%1 h %2 min").arg(hours).arg(minutes, 2, 10, QLatin1Char('0'));
    if (minutes > 0)
        return tr("%1 min %2 s").arg(minutes).arg(secs, 2, 10, QLatin1Char('0'));
    return tr("%1 s").arg(secs);
}

QVariant SandboxTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Sandbox &s = sandboxAt(index.row());
    const auto column = Column(index.column());

    switch (role) {
    case SandboxIdRole:
        return s.sandboxId;
    case DisplayStateRole:
        return int(displayState(index.row()));
    case IsOrphanRole:
        return m_orphans.contains(s.sandboxId);
    case FilterTextRole:
        return s.sandboxId + QLatin1Char(' ') + s.templateId + QLatin1Char(' ') + s.alias
               + QLatin1Char(' ') + compactMetadata(s.metadata);
    default:
        break;
    }

    switch (column) {
    case IdColumn:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return s.sandboxId;
        if (role == Qt::FontRole)
            return QFontDatabase::systemFont(QFontDatabase::FixedFont);
        break;
    case TemplateColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return s.alias.isEmpty() ? s.templateId : s.alias;
        if (role == Qt::ToolTipRole)
            return s.alias.isEmpty() || s.alias == s.templateId
                       ? s.templateId
                       : tr("%1 (template %2)").arg(s.alias, s.templateId);
        break;
    case StateColumn: {
        const auto flag = m_orphans.constFind(s.sandboxId);
        const OrphanFlag *orphan = flag != m_orphans.constEnd() ? &*flag : nullptr;
        if (role == Qt::DisplayRole || role == Qt::AccessibleTextRole)
            return stateText(s, orphan);
        if (role == SortRole) // running, paused, suspected orphans, orphans
            return orphan ? int(DisplayState::Orphan) + (orphan->suspected ? 0 : 1)
                          : int(displayState(index.row()));
        if (role == Qt::DecorationRole)
            return orphan && orphan->suspected ? suspectedOrphanIcon()
                                               : stateIcon(displayState(index.row()));
        break;
    }
    case StartedColumn:
        if (role == Qt::DisplayRole) {
            // Today's sandboxes show the time only: the common case stays narrow.
            const QDateTime local = s.startedAt.toLocalTime();
            if (local.date() == m_clock().toLocalTime().date())
                return local.time().toString(QStringLiteral("HH:mm:ss"));
            return QLocale().toString(local, QLocale::ShortFormat);
        }
        if (role == Qt::ToolTipRole)
            return QLocale().toString(s.startedAt.toLocalTime(), QLocale::LongFormat);
        if (role == SortRole)
            return s.startedAt;
        break;
    case TimeLeftColumn: {
        const bool paused = s.state == SandboxState::Paused;
        const qint64 left = paused ? 0 : m_clock().secsTo(s.endAt);
        if (role == Qt::DisplayRole) {
            if (paused)
                return tr("paused");
            return left > 0 ? formatDuration(left) : tr("expiring");
        }
        if (role == Qt::AccessibleTextRole || role == Qt::ToolTipRole) {
            if (paused)
                return tr("Paused: does not expire");
            return tr("Ends at %1").arg(QLocale().toString(s.endAt.toLocalTime(), QLocale::LongFormat));
        }
        if (role == SortRole)
            return paused ? std::numeric_limits<qint64>::max() : s.endAt.toMSecsSinceEpoch();
        if (role == Qt::ForegroundRole && !paused && left < 60)
            return QColor(0xd6, 0x3b, 0x3b);
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    }
    case CpuColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return s.cpuCount;
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case MemoryColumn:
        if (role == Qt::DisplayRole)
            return formatMemory(s.memoryMB);
        if (role == SortRole)
            return s.memoryMB;
        if (role == Qt::TextAlignmentRole)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        break;
    case MetadataColumn:
        if (role == Qt::DisplayRole || role == SortRole)
            return compactMetadata(s.metadata);
        if (role == Qt::ToolTipRole && !s.metadata.isEmpty()) {
            QStringList lines;
            for (auto it = s.metadata.begin(); it != s.metadata.end(); ++it)
                lines.append(terminalSafe(it.key(), false).toHtmlEscaped() + QLatin1String(" = <b>")
                    + terminalSafe(it.value(), false).toHtmlEscaped() + QLatin1String("</b>"));
            return lines.join(QLatin1String("<br>"));
        }
        break;
    case FlagColumn: {
        const auto flag = m_orphans.constFind(s.sandboxId);
        const bool orphan = flag != m_orphans.constEnd();
        if (role == SortRole)
            return orphan ? (flag->suspected ? 1 : 2) : 0;
        if (!orphan)
            break;
        // A suspected orphan (someone else's sandbox) is drawn dimmed and named so.
        const QString title = flag->suspected ? tr("Suspected orphan") : tr("Orphan");
        if (role == Qt::DecorationRole)
            return flag->suspected ? QIcon(orphanIcon().pixmap(QSize(16, 16), QIcon::Disabled))
                                   : orphanIcon();
        if (role == Qt::AccessibleTextRole)
            return tr("%1: %2").arg(title, flag->reason);
        if (role == Qt::ToolTipRole) {
            QString tip = QLatin1String("<b>") + title.toHtmlEscaped() + QLatin1String("</b>: ")
                          + flag->reason.toHtmlEscaped();
            if (!flag->evidence.isEmpty())
                tip += QLatin1String("<br>") + flag->evidence.toHtmlEscaped();
            return tip;
        }
        break;
    }
    case ColumnCount:
        break;
    }

    if (role == Qt::ForegroundRole && m_stale)
        return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
    return {};
}

QVariant SandboxTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case IdColumn:
            return tr("ID");
        case TemplateColumn:
            return tr("Template");
        case StateColumn:
            return tr("State");
        case StartedColumn:
            return tr("Started");
        case TimeLeftColumn:
            return tr("Time left");
        case CpuColumn:
            return tr("vCPU");
        case MemoryColumn:
            return tr("RAM");
        case MetadataColumn:
            return tr("Metadata");
        case FlagColumn:
            return {};
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::ToolTipRole && section == FlagColumn)
        return tr("Orphan flag: a sandbox left behind by a failed creation");
    if (role == Qt::AccessibleTextRole && section == FlagColumn)
        return tr("Orphan flag");
    return {};
}

SandboxTableModel::Split SandboxTableModel::splitAnswer(const QList<Sandbox> &answer) const
{
    // One ID lookup per incoming sandbox.
    Split split;
    QHash<QString, qsizetype> addedAt; // new ID -> its place in `added`
    for (qsizetype i = 0; i < answer.size(); ++i) {
        const QString &id = answer.at(i).sandboxId;
        if (const Row *row = m_rowById.value(id)) {
            split.listed.append({ row->number, i });
        } else if (const auto it = addedAt.constFind(id); it != addedAt.constEnd()) {
            split.added[*it] = i;
        } else {
            addedAt.insert(id, split.added.size());
            split.added.append(i);
        }
    }
    return split;
}

void SandboxTableModel::setSandboxes(const QList<Sandbox> &sandboxes)
{
    // `source[row]` is where that row's new value is in `sandboxes` (-1: not in it);
    // a duplicate ID counts once, the last one winning.
    const Split split = splitAnswer(sandboxes);
    std::vector<qsizetype> source(m_rows.size(), -1);
    for (const auto &[number, i] : split.listed)
        source[size_t(number)] = i;

    std::vector<bool> gone(m_rows.size());
    QList<std::pair<const Row *, qsizetype>> changed; // (row, index in `sandboxes`)
    bool anyGone = false;
    for (size_t row = 0; row < m_rows.size(); ++row) {
        if (source[row] < 0)
            gone[row] = anyGone = true;
        else if (!(m_rows[row]->sandbox == sandboxes.at(source[row])))
            changed.append({m_rows[row].get(), source[row]});
    }

    if (anyGone)
        removeRows(gone);
    applyChanges(changed, sandboxes);
    appendRows(split.added, sandboxes);
    updateCountdown();
}

void SandboxTableModel::mergeSandboxes(const QList<Sandbox> &page)
{
    // A page of a longer list touches only its own rows: look at those, not at every
    // row (a full walk per page made loading 10,000 quadratic). Nothing is removed.
    Split split = splitAnswer(page);
    std::stable_sort(split.listed.begin(), split.listed.end(),
        [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<std::pair<const Row *, qsizetype>> changed;
    for (qsizetype k = 0; k < split.listed.size(); ++k) {
        if (k + 1 < split.listed.size() && split.listed.at(k + 1).first == split.listed.at(k).first)
            continue; // the same row again later in the page: that one counts
        const auto &[number, i] = split.listed.at(k);
        const Row *row = m_rows[size_t(number)].get();
        if (!(row->sandbox == page.at(i)))
            changed.append({ row, i });
    }
    applyChanges(changed, page);
    appendRows(split.added, page);
    updateCountdown();
}

void SandboxTableModel::applyChanges(
    const QList<std::pair<const Row *, qsizetype>> &changedRows, const QList<Sandbox> &sandboxes)
{
    // In row order (the removals are done, so numbers are final); already sorted, as
    // setSandboxes() collects them walking the rows and mergeSandboxes() sorts them.
    QList<std::pair<int, qsizetype>> changed;
    changed.reserve(changedRows.size());
    for (const auto &[row, i] : changedRows)
        changed.append({row->number, i});

    // Each contiguous range is replaced and announced before the next one is
    // touched: a sorting proxy re-inserts the announced rows by binary search, which
    // needs every other row to still hold what it last announced.
    for (qsizetype start = 0; start < changed.size();) {
        qsizetype end = start;
        while (end + 1 < changed.size() && changed.at(end + 1).first == changed.at(end).first + 1)
            ++end;
        for (qsizetype k = start; k <= end; ++k) {
            Sandbox &sandbox = m_rows[size_t(changed.at(k).first)]->sandbox;
            countRow(sandbox, -1);
            sandbox = sandboxes.at(changed.at(k).second);
            countRow(sandbox, +1);
        }
        Q_EMIT dataChanged(index(changed.at(start).first, 0), index(changed.at(end).first, ColumnCount - 1));
        start = end + 1;
    }
}

void SandboxTableModel::removeRows(const std::vector<bool> &gone)
{
    // Bottom-up in contiguous ranges, so the row numbers still to be removed stay
    // valid; the survivors are renumbered once at the end.
    int first = int(gone.size());
    for (int end = int(gone.size()) - 1; end >= 0; --end) {
        if (!gone[size_t(end)])
            continue;
        int start = end;
        while (start > 0 && gone[size_t(start - 1)])
            --start;
        beginRemoveRows({}, start, end);
        for (int row = start; row <= end; ++row) {
            m_rowById.remove(m_rows[size_t(row)]->sandbox.sandboxId);
            countRow(m_rows[size_t(row)]->sandbox, -1);
        }
        m_rows.erase(m_rows.begin() + start, m_rows.begin() + end + 1);
        endRemoveRows();
        first = start;
        end = start;
    }
    renumberFrom(first);
}

void SandboxTableModel::appendRows(const QList<qsizetype> &added, const QList<Sandbox> &sandboxes)
{
    if (added.isEmpty())
        return;
    const int first = int(m_rows.size());
    beginInsertRows({}, first, first + int(added.size()) - 1);
    m_rows.reserve(m_rows.size() + size_t(added.size()));
    for (qsizetype i : added) {
        auto row = std::make_unique<Row>(Row { sandboxes.at(i), int(m_rows.size()) });
        m_rowById.insert(row->sandbox.sandboxId, row.get());
        countRow(row->sandbox, +1);
        m_rows.push_back(std::move(row));
    }
    endInsertRows();
}

void SandboxTableModel::setOrphanFlags(const QHash<QString, OrphanFlag> &flags)
{
    // Rows whose flag appears, changes or goes; applied range by range for the same
    // reason as in setSandboxes() (the state column sorts by it).
    QList<int> rows;
    for (auto it = flags.begin(); it != flags.end(); ++it) {
        const auto old = m_orphans.constFind(it.key());
        if (old == m_orphans.constEnd() || !(*old == it.value())) {
            if (const int row = rowOf(it.key()); row >= 0)
                rows.append(row);
        }
    }
    for (auto it = m_orphans.begin(); it != m_orphans.end(); ++it) {
        if (!flags.contains(it.key())) {
            if (const int row = rowOf(it.key()); row >= 0)
                rows.append(row);
        }
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    for (qsizetype start = 0; start < rows.size();) {
        qsizetype end = start;
        while (end + 1 < rows.size() && rows.at(end + 1) == rows.at(end) + 1)
            ++end;
        for (qsizetype k = start; k <= end; ++k) {
            const QString &id = m_rows[size_t(rows.at(k))]->sandbox.sandboxId;
            if (const auto flag = flags.constFind(id); flag != flags.constEnd())
                m_orphans.insert(id, *flag);
            else
                m_orphans.remove(id);
        }
        Q_EMIT dataChanged(index(rows.at(start), 0), index(rows.at(end), ColumnCount - 1));
        start = end + 1;
    }
    // Flags of sandboxes not listed (yet) need no signal.
    m_orphans = flags;
}

void SandboxTableModel::setStale(bool stale)
{
    if (m_stale == stale)
        return;
    m_stale = stale;
    if (!m_rows.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole});
}

void SandboxTableModel::setClock(std::function<QDateTime()> clock)
{
    m_clock = std::move(clock);
}

void SandboxTableModel::setCountdownRunning(bool running)
{
    m_countdownWanted = running;
    updateCountdown();
}

void SandboxTableModel::tick()
{
    if (m_rows.empty())
        return;
    // Only this column's cells: the view repaints what of it is visible, and a proxy
    // does not re-sort or re-filter since neither role it uses is named.
    Q_EMIT dataChanged(index(0, TimeLeftColumn), index(rowCount() - 1, TimeLeftColumn),
                       {Qt::DisplayRole, Qt::ForegroundRole, Qt::AccessibleTextRole});
}

void SandboxTableModel::renumberFrom(int first)
{
    for (size_t row = size_t(first); row < m_rows.size(); ++row)
        m_rows[row]->number = int(row);
}

void SandboxTableModel::updateCountdown()
{
    const bool run = m_countdownWanted && !m_rows.empty();
    if (run && !m_countdown.isActive())
        m_countdown.start();
    else if (!run && m_countdown.isActive())
        m_countdown.stop();
}

} // namespace sd
