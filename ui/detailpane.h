#pragma once

#include "api/connectionsettings.h"
#include "api/sandbox.h"
#include "models/sandboxtablemodel.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableWidget;
class QTabWidget;

namespace sd {

/// The public MCP URL of `sandbox` (https://50005-<id>.<domain>/mcp); empty when
/// neither the sandbox nor the profile has a domain (local sandboxes).
QString sandboxMcpUrl(const ConnectionSettings &connection, const Sandbox &sandbox);

/// Everything about the selected sandbox: its fields, metadata, envd version and MCP
/// URL. Shows a placeholder when nothing (or several rows) is selected.
class DetailPane : public QWidget
{
    Q_OBJECT

public:
    explicit DetailPane(QWidget *parent = nullptr);

    /// Shows `sandbox` (nullptr: the placeholder with `placeholder` as text).
    void showSandbox(const Sandbox *sandbox, const std::optional<OrphanFlag> &orphan,
                     const ConnectionSettings &connection, const QDateTime &now,
                     const QString &placeholder = {});
    QString sandboxId() const { return m_sandboxId; }
    QTabWidget *tabs() const { return m_tabs; }
    /// The text shown for a field (tests and accessibility); empty if unknown.
    QString fieldText(const QString &field) const;

Q_SIGNALS:
    void copyRequested(const QString &text, const QString &what);

private:
    QLabel *addField(const QString &key, const QString &label);

    QStackedWidget *m_stack;
    QLabel *m_placeholder;
    QTabWidget *m_tabs;
    QFormLayout *m_form;
    QHash<QString, QLabel *> m_fields;
    QTableWidget *m_metadata;
    QLabel *m_title;
    QPushButton *m_copyMcp = nullptr;
    QString m_sandboxId;
    QString m_mcpUrl;
};

} // namespace sd
