#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace sd {

namespace {

bool installTranslator(const QLocale &locale, const QString &name, const QString &directory)
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (!translator->load(locale, name, QStringLiteral("_"), directory)) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    return true;
}

} // namespace

void installTranslations(const QLocale &locale)
{
    const QString ours = QStringLiteral(":/i18n");
    // Translators installed later are asked first: the English plurals are the fallback.
    installTranslator(QLocale(QLocale::English), QStringLiteral("sandbox-desk"), ours);
    installTranslator(
        locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    if (locale.language() != QLocale::English)
        installTranslator(locale, QStringLiteral("sandbox-desk"), ours);
}

} // namespace sd
