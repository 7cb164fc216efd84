#include "installation.h"

#include <QSettings>
#include <QUuid>

namespace sd {

QString installationId(QSettings &settings)
{
    const QString key = QStringLiteral("installation/id");
    QString id = settings.value(key).toString();
    if (QUuid::fromString(id).isNull()) {
        id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        settings.setValue(key, id);
        settings.sync();
    }
    return id;
}

QString installationId()
{
    QSettings settings;
    return installationId(settings);
}

} // namespace sd
