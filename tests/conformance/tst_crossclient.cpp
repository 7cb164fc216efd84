// Cross-client conformance: what the Qt client creates, the official SDK lists with
// its metadata; what the SDK creates, the Qt client lists and kills.
#include "api/sandboxjobs.h"
#include "localbackend.h"
#include "network/networkaccessmanager.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

using namespace sd;

class TestCrossClient : public QObject
{
    Q_OBJECT

private:
    test::LocalBackend m_backend;
    sd::NetworkAccessManager m_network;
    ConnectionSettings m_settings;

    QByteArray runSdk(const QStringList &args)
    {
        QProcess node;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("E2B_API_URL"), m_backend.url().toString());
        env.insert(QStringLiteral("E2B_SANDBOX_URL"), m_backend.url().toString());
        env.insert(QStringLiteral("E2B_API_KEY"), m_backend.apiKey());
        env.insert(QStringLiteral("SD_BIN_DIR"), QStringLiteral(SD_BIN_DIR));
        node.setProcessEnvironment(env);
        node.start(QStringLiteral("node"),
                   QStringList{QStringLiteral(SD_CONFORMANCE_DIR "/lib/sdk-cli.mjs")} + args);
        if (!node.waitForFinished(60000) || node.exitCode() != 0) {
            qWarning().noquote() << "SDK call failed:" << node.readAllStandardError();
            return {};
        }
        return node.readAllStandardOutput().trimmed();
    }

    template<typename J>
    bool run(J *job)
    {
        job->setAutoDelete(false);
        QSignalSpy spy(job, &Job::finished);
        job->start();
        return spy.wait(30000) && !job->hasError();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_backend.start(), qPrintable(m_backend.errorString()));
        m_settings.apiUrl = m_backend.url();
        m_settings.sandboxUrl = m_backend.url();
        m_settings.apiKey = m_backend.apiKey();
    }

    void createdByQtListedBySdk()
    {
        NewSandbox request;
        request.templateId = QStringLiteral("base");
        request.metadata = {{QStringLiteral("suite"), QStringLiteral("qt-made")},
                            {QStringLiteral("owner"), QStringLiteral("desk user")}};
        CreateSandboxJob create(&m_network, m_settings, request);
        QVERIFY2(run(&create), qPrintable(create.error().message()));

        const QByteArray out = runSdk({QStringLiteral("list"), QStringLiteral(R"({"suite":"qt-made"})")});
        const QJsonArray listed = QJsonDocument::fromJson(out).array();
        QCOMPARE(listed.size(), 1);
        const QJsonObject sandbox = listed.first().toObject();
        QCOMPARE(sandbox.value(QLatin1String("sandboxId")).toString(), create.sandbox().sandboxId);
        QCOMPARE(sandbox.value(QLatin1String("templateId")).toString(), QStringLiteral("base"));
        QCOMPARE(sandbox.value(QLatin1String("metadata")).toObject(),
                 (QJsonObject{{QStringLiteral("suite"), QStringLiteral("qt-made")},
                              {QStringLiteral("owner"), QStringLiteral("desk user")}}));
    }

    void createdBySdkListedAndKilledByQt()
    {
        const QString id = QString::fromUtf8(
            runSdk({QStringLiteral("create"), QStringLiteral("base"), QStringLiteral(R"({"suite":"sdk-made"})")}));
        QCOMPARE(id.size(), 20);

        SandboxFilter filter;
        filter.metadata = {{QStringLiteral("suite"), QStringLiteral("sdk-made")}};
        ListSandboxesJob list(&m_network, m_settings, filter);
        QVERIFY2(run(&list), qPrintable(list.error().message()));
        QCOMPARE(list.sandboxes().size(), 1);
        QCOMPARE(list.sandboxes().first().sandboxId, id);
        QCOMPARE(list.sandboxes().first().metadata.value(QStringLiteral("suite")), QStringLiteral("sdk-made"));

        KillSandboxJob kill(&m_network, m_settings, id);
        QVERIFY2(run(&kill), qPrintable(kill.error().message()));
        QVERIFY(!kill.wasAlreadyGone());

        const QByteArray out = runSdk({QStringLiteral("list"), QStringLiteral(R"({"suite":"sdk-made"})")});
        QCOMPARE(QJsonDocument::fromJson(out).array().size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCrossClient)
#include "tst_crossclient.moc"
