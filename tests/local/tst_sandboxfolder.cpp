// A sandbox's folder, whose processes are hostile: one that is still running while its
// folder is deleted (a kill is not instant, nor is the end of a jail's pid namespace),
// or while the usage walk measures it, may put a symlink to any host path in place of
// a directory there. The deletion must remove the symlink, never what it points to,
// and the walk must not count (or read) what it points to.

#include "local/sandboxfs.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace sd::local;

namespace {

bool writeFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write("keep") == 4;
}

int entryCount(const QString &path)
{
    return int(QDir(path)
                   .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot)
                   .size());
}

constexpr int homeFiles = 3000;
constexpr int homeFolders = 20;

/// A sandbox home of 3,000 files of 4 bytes beside 20 folders, each holding one more;
/// returns the folders (none if it could not be made). The many files give a swap
/// the time between a folder being listed and being gone into.
QStringList makeHome(const QString &home)
{
    if (!QDir().mkpath(home))
        return {};
    for (int i = 0; i < homeFiles; ++i) {
        if (!writeFile(home + QStringLiteral("/f%1").arg(i)))
            return {};
    }
    QStringList folders;
    for (int i = 0; i < homeFolders; ++i) {
        folders << home + QStringLiteral("/d%1").arg(i);
        if (!QDir().mkpath(folders.last())
            || !writeFile(folders.last() + QStringLiteral("/inside")))
            return {};
    }
    return folders;
}

/// Runs `work` while another thread, as a process in the sandbox would, moves each of
/// `folders` aside and puts a symlink to `outside` in its place, `delayUs` after
/// `work` began.
template<typename Work>
void whileSwapping(const QStringList &folders, const QString &outside, int delayUs, Work work)
{
    std::atomic<bool> started { false };
    std::thread swapper([&] {
        while (!started)
            std::this_thread::yield();
        ::usleep(useconds_t(delayUs));
        for (const QString &folder : folders) {
            const QByteArray from = QFile::encodeName(folder);
            ::rename(from.constData(), (from + ".moved").constData());
            ::symlink(QFile::encodeName(outside).constData(), from.constData());
        }
    });
    started = true;
    work();
    swapper.join();
}

} // namespace

class TestSandboxFolder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // A directory listed as one becomes a symlink to a host folder before the deletion
    // goes into it: its many siblings give the swap the time.
    void aDirectorySwappedForASymlinkIsNotFollowed()
    {
        QTemporaryDir dir;
        const QString outside = dir.filePath(QStringLiteral("outside"));
        QVERIFY(QDir().mkpath(outside));
        for (int i = 0; i < 20; ++i)
            QVERIFY(writeFile(outside + QStringLiteral("/keep-%1").arg(i)));

        for (int round = 0; round < 5; ++round) {
            const QString root = dir.filePath(QStringLiteral("sandbox-%1").arg(round));
            const QStringList folders = makeHome(root + QStringLiteral("/home/user"));
            QVERIFY(!folders.isEmpty());
            whileSwapping(folders, outside, 500, [&] { SandboxFs::removeTree(root); });
            QCOMPARE(entryCount(outside), 20);
            // What the swap left (the moved directories) goes at the next try.
            QVERIFY(SandboxFs::removeTree(root));
            QVERIFY(!QFileInfo::exists(root));
            QCOMPARE(entryCount(outside), 20);
        }
    }

    // The usage walk, while directories become symlinks to a host folder holding a
    // (sparse) 1 TiB file: it counts the sandbox's files, never that one.
    void diskUsageNeverFollowsASwappedSymlink()
    {
        QTemporaryDir dir;
        const QString outside = dir.filePath(QStringLiteral("outside"));
        QVERIFY(QDir().mkpath(outside));
        {
            QFile huge(outside + QStringLiteral("/huge"));
            QVERIFY(huge.open(QIODevice::WriteOnly) && huge.resize(qint64(1) << 40));
        }
        const QString root = dir.filePath(QStringLiteral("sandbox"));
        const qint64 sandboxBytes = (homeFiles + homeFolders) * 4;
        for (int round = 0; round < 3; ++round) {
            QVERIFY(SandboxFs::removeTree(root));
            const QStringList folders = makeHome(root + QStringLiteral("/home/user"));
            QVERIFY(!folders.isEmpty());
            QCOMPARE(SandboxFs::diskUsage(root), sandboxBytes);
            qint64 used = -1;
            whileSwapping(folders, outside, 200, [&] { used = SandboxFs::diskUsage(root); });
            // A folder's file counts once, twice (met before and after it was moved
            // aside) or not at all, as the walk met it; never what the links point to.
            QVERIFY2(used >= homeFiles * 4 && used <= sandboxBytes + homeFolders * 4,
                qPrintable(QString::number(used)));
        }
    }

    // A symlink where the deletion starts, or anywhere below it, is removed itself.
    void symlinksAreRemovedNotFollowed()
    {
        QTemporaryDir dir;
        const QString outside = dir.filePath(QStringLiteral("outside"));
        QVERIFY(QDir().mkpath(outside));
        QVERIFY(writeFile(outside + QStringLiteral("/keep")));
        const QString root = dir.filePath(QStringLiteral("sandbox"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/home/user")));
        QVERIFY(QFile::link(outside, root + QStringLiteral("/home/user/link")));
        QVERIFY(
            QFile::link(outside + QStringLiteral("/keep"), root + QStringLiteral("/file-link")));
        QVERIFY(SandboxFs::removeTree(root));
        QVERIFY(!QFileInfo::exists(root));
        QVERIFY(QFileInfo::exists(outside + QStringLiteral("/keep")));

        const QString linkedRoot = dir.filePath(QStringLiteral("linked"));
        QVERIFY(QFile::link(outside, linkedRoot));
        QVERIFY(SandboxFs::removeTree(linkedRoot));
        QVERIFY(!QFileInfo(linkedRoot).isSymLink());
        QVERIFY(QFileInfo::exists(outside + QStringLiteral("/keep")));
    }

    // Deeper than a path may be long, and than this process has descriptors: a
    // sandbox can make that with mkdir and cd in a loop.
    void aVeryDeepTreeIsRemoved()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("sandbox"));
        QVERIFY(QDir().mkpath(root));
        const int top = ::open(QFile::encodeName(root).constData(), O_RDONLY | O_DIRECTORY);
        QVERIFY(top >= 0);
        int fd = top;
        for (int depth = 0; depth < 3000; ++depth) {
            QCOMPARE(::mkdirat(fd, "nested-directory", 0700), 0);
            const int next = ::openat(fd, "nested-directory", O_RDONLY | O_DIRECTORY);
            QVERIFY(next >= 0);
            if (fd != top)
                ::close(fd);
            fd = next;
        }
        QCOMPARE(::mkdirat(fd, "bottom", 0700), 0);
        ::close(fd);
        ::close(top);
        QVERIFY(SandboxFs::removeTree(root));
        QVERIFY(!QFileInfo::exists(root));
    }

    // A directory a process made unreadable, or unwritable, is still removed.
    void directoriesWithoutPermissionsAreRemoved()
    {
        QTemporaryDir dir;
        const QString root = dir.filePath(QStringLiteral("sandbox"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/locked/inner")));
        QVERIFY(writeFile(root + QStringLiteral("/locked/inner/file")));
        QVERIFY(writeFile(root + QStringLiteral("/locked/file")));
        QCOMPARE(
            ::chmod(QFile::encodeName(root + QStringLiteral("/locked/inner")).constData(), 0), 0);
        QCOMPARE(::chmod(QFile::encodeName(root + QStringLiteral("/locked")).constData(), 0500), 0);
        QVERIFY(SandboxFs::removeTree(root));
        QVERIFY(!QFileInfo::exists(root));
    }
};

QTEST_GUILESS_MAIN(TestSandboxFolder)
#include "tst_sandboxfolder.moc"
