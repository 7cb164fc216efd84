#pragma once

class QLocale;

namespace sd {

/// Installs on the application the translations for `locale` (the system's by
/// default: LANGUAGE, LC_ALL, LC_MESSAGES, LANG): Sandbox Desk's own, compiled in
/// under :/i18n, and Qt's (qtbase_*.qm) when Qt's translations are installed. The
/// English plural forms go under them, so "%n sandbox(es)" reads "1 sandbox" in any
/// language without a translation of its own. Call once, before any widget or
/// command-line text is made; the translators belong to the application.
void installTranslations(const QLocale &locale);

} // namespace sd
