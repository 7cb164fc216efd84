#pragma once

#include <QString>

class QSettings;

namespace sd {

/// This installation's id: a uuid made once and kept in the settings. It tags every
/// sandbox we create (`sandbox-desk.install`). Not a secret.
QString installationId(QSettings &settings);
/// Same, in the application's default QSettings.
QString installationId();

} // namespace sd
