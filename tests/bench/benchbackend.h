#pragma once

// What the benchmarks that talk to a real sandbox-desk-local share: the environment
// that points the official SDK and CLI at it, and where they are installed.

#include "benchutil.h"
#include "localbackend.h"

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QStringList>

namespace sd::bench {

/// `--npm-dir DIR`, else $SD_NPM_DIR, else <build>/npm (where `make npm` installs).
inline QString npmDir(const QStringList &args)
{
    return optionValue(args, QStringLiteral("--npm-dir"),
        qEnvironmentVariable(
            "SD_NPM_DIR", QCoreApplication::applicationDirPath() + QStringLiteral("/../npm")));
}

/// This process's environment with E2B_API_URL, E2B_SANDBOX_URL and E2B_API_KEY
/// naming `backend`, as the official SDK and CLI read them.
inline QProcessEnvironment e2bEnvironment(const sd::test::LocalBackend &backend)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString url = backend.url().toString(QUrl::StripTrailingSlash);
    env.insert(QStringLiteral("E2B_API_URL"), url);
    env.insert(QStringLiteral("E2B_SANDBOX_URL"), url);
    env.insert(QStringLiteral("E2B_API_KEY"), backend.apiKey());
    return env;
}

} // namespace sd::bench
