#pragma once

#include "api/connectionsettings.h"
#include "api/sandbox.h"
#include "common/job.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QNetworkAccessManager;
class QPlainTextEdit;
class QTableWidget;

class QChartView;
class QHBoxLayout;
class QVBoxLayout;
class QLineSeries;

namespace sd {

/// The tabs of the detail pane that fetch on demand: each loads for the shown
/// sandbox when it becomes visible, and again on Refresh (or every 5 s with Follow).
class DetailTab : public QWidget
{
    Q_OBJECT

public:
    explicit DetailTab(QWidget *parent = nullptr);

    void setBackend(QNetworkAccessManager *network, const ConnectionSettings &connection);
    /// Switches to another sandbox (empty: none); reloads if visible.
    void setSandboxId(const QString &sandboxId);
    QString sandboxId() const { return m_sandboxId; }
    void reload();
    /// The line under the content: loading, errors, counts.
    QString statusText() const;

Q_SIGNALS:
    void loaded(bool ok);

protected:
    virtual Job *makeJob() = 0;
    virtual void showResult(Job *job) = 0;
    virtual void clearContent() = 0;
    void showEvent(QShowEvent *event) override;
    void setStatus(const QString &text);
    QHBoxLayout *toolRow() const { return m_tools; }

    QNetworkAccessManager *m_network = nullptr;
    ConnectionSettings m_connection;
    QString m_sandboxId;

private:
    QHBoxLayout *m_tools;
    QLabel *m_status;
    QPointer<Job> m_job;
    QString m_loadedFor;

protected:
    QVBoxLayout *m_body;
};

/// Lifecycle logs with a level filter, search and follow.
class LogsTab : public DetailTab
{
    Q_OBJECT

public:
    explicit LogsTab(QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }
    /// The selected entry in full, wrapped: a long message is cut in its cell.
    QPlainTextEdit *entryView() const { return m_entryView; }

protected:
    Job *makeJob() override;
    void showResult(Job *job) override;
    void clearContent() override;

private:
    void applyFilter();

    QList<SandboxLogEntry> m_entries;
    QTableWidget *m_table;
    QPlainTextEdit *m_entryView;
    QComboBox *m_level;
    QLineEdit *m_search;
    QCheckBox *m_follow;
    QTimer m_followTimer;
};

/// CPU and memory over time (Qt Charts).
class MetricsTab : public DetailTab
{
    Q_OBJECT

public:
    explicit MetricsTab(QWidget *parent = nullptr);

protected:
    Job *makeJob() override;
    void showResult(Job *job) override;
    void clearContent() override;

private:
    QChartView *m_view;
    QLineSeries *m_cpu;
    QLineSeries *m_memory;
};

/// The processes envd runs in the sandbox (envd `List`).
class ProcessesTab : public DetailTab
{
    Q_OBJECT

public:
    explicit ProcessesTab(QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }

protected:
    Job *makeJob() override;
    void showResult(Job *job) override;
    void clearContent() override;

private:
    QTableWidget *m_table;
};

} // namespace sd
