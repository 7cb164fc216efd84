// Replays an arbitrary creation journal file: what a crash, a full disk or another
// program may have left in it.

#include "journal/creationjournal.h"

#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("journal.jsonl"));
    QFile::remove(path);
    QFile::remove(path + QStringLiteral(".corrupt"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return 0;
    file.write(reinterpret_cast<const char *>(data), qint64(size));
    file.close();
    sd::CreationJournal journal(path);
    journal.open();
    return 0;
}
