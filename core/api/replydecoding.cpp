#include "api/replydecoding.h"

#include "common/isotime.h"

#include <QJsonDocument>

#include <cstring>
#include <limits>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace sd {

QString serverMessageFromBody(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (doc.isObject()) {
        const QJsonValue message = doc.object().value(QLatin1String("message"));
        if (message.isString())
            return message.toString();
    }
    QString text = QString::fromUtf8(body.left(200)).simplified();
    if (body.size() > 200)
        text += QStringLiteral("…");
    return text;
}

namespace {
std::optional<QJsonDocument> parseJson(const QByteArray &body, QString *problem)
{
    if (body.trimmed().isEmpty()) {
        *problem = QStringLiteral("the answer is empty");
        return std::nullopt;
    }
    QJsonParseError parseError;
    QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *problem = QStringLiteral("the answer is not JSON (%1)").arg(parseError.errorString());
        return std::nullopt;
    }
    return doc;
}
} // namespace

std::optional<QJsonObject> parseJsonObject(const QByteArray &body, QString *problem)
{
    const auto doc = parseJson(body, problem);
    if (!doc)
        return std::nullopt;
    if (!doc->isObject()) {
        *problem = QStringLiteral("expected a JSON object");
        return std::nullopt;
    }
    return doc->object();
}

std::optional<QJsonArray> parseJsonArray(const QByteArray &body, QString *problem)
{
    const auto doc = parseJson(body, problem);
    if (!doc)
        return std::nullopt;
    if (!doc->isArray()) {
        *problem = QStringLiteral("expected a JSON array");
        return std::nullopt;
    }
    return doc->array();
}

bool readCreatedSandbox(const QByteArray &body, Sandbox *out, QString *problem)
{
    const auto json = parseJsonObject(body, problem);
    if (!json)
        return false;
    const auto sandbox = Sandbox::fromCreated(*json, problem);
    if (!sandbox)
        return false;
    *out = *sandbox;
    return true;
}

namespace {

// JSON in the form readPlainListedPage() takes; every other form fails, to be read by
// Qt's parser instead.
class PlainJsonReader
{
public:
    explicit PlainJsonReader(const QByteArray &bytes)
        : m_p(bytes.constData())
        , m_end(bytes.constData() + bytes.size())
    { }

    bool atEnd()
    {
        skipSpace();
        return m_p == m_end;
    }

    bool take(char c)
    {
        skipSpace();
        if (m_p == m_end || *m_p != c)
            return false;
        ++m_p;
        return true;
    }

    bool literal(const char *word)
    {
        skipSpace();
        const qsizetype length = qsizetype(strlen(word));
        if (m_end - m_p < length || memcmp(m_p, word, size_t(length)) != 0)
            return false;
        m_p += length;
        return true;
    }

    /// Printable ASCII without escapes, so its bytes are its characters.
    bool string(QLatin1String *out)
    {
        skipSpace();
        if (m_p == m_end || *m_p != '"')
            return false;
        const char *start = ++m_p;
#ifdef __SSE2__
        // Sixteen bytes at a time up to the first that ends the string or is not
        // plain (most of a page's bytes are in strings).
        const __m128i quote = _mm_set1_epi8('"');
        const __m128i backslash = _mm_set1_epi8('\\');
        const __m128i space = _mm_set1_epi8(0x20);
        const __m128i del = _mm_set1_epi8(0x7f);
        while (m_end - m_p >= 16) {
            const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m_p));
            // Signed: bytes from 0x80 count as below the space too.
            const __m128i stop = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(bytes, quote), _mm_cmpeq_epi8(bytes, backslash)),
                _mm_or_si128(_mm_cmplt_epi8(bytes, space), _mm_cmpeq_epi8(bytes, del)));
            if (const int mask = _mm_movemask_epi8(stop)) {
                m_p += __builtin_ctz(unsigned(mask));
                break;
            }
            m_p += 16;
        }
#endif
        for (; m_p != m_end; ++m_p) {
            const char c = *m_p;
            if (c == '"') {
                *out = QLatin1String(start, m_p - start);
                ++m_p;
                return true;
            }
            if (c < 0x20 || c > 0x7e || c == '\\')
                return false;
        }
        return false;
    }

    /// An integer of at most 15 digits, no fraction or exponent: exact as a double.
    bool integer(qint64 *out)
    {
        skipSpace();
        const bool negative = m_p != m_end && *m_p == '-';
        if (negative)
            ++m_p;
        const char *digits = m_p;
        qint64 value = 0;
        for (; m_p != m_end && *m_p >= '0' && *m_p <= '9'; ++m_p) {
            if (m_p - digits == 15)
                return false;
            value = value * 10 + (*m_p - '0');
        }
        const qsizetype count = m_p - digits;
        if (count == 0 || (count > 1 && *digits == '0'))
            return false;
        if (m_p != m_end && (*m_p == '.' || *m_p == 'e' || *m_p == 'E'))
            return false;
        *out = negative ? -value : value;
        return true;
    }

    /// Passes over one value of a form this reader takes, nested 32 deep at most.
    bool skipValue(int depth = 0)
    {
        skipSpace();
        if (m_p == m_end || depth > 32)
            return false;
        switch (*m_p) {
        case '"': {
            QLatin1String text;
            return string(&text);
        }
        case '{':
            ++m_p;
            if (take('}'))
                return true;
            do {
                QLatin1String key;
                if (!string(&key) || !take(':') || !skipValue(depth + 1))
                    return false;
            } while (take(','));
            return take('}');
        case '[':
            ++m_p;
            if (take(']'))
                return true;
            do {
                if (!skipValue(depth + 1))
                    return false;
            } while (take(','));
            return take(']');
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default: {
            qint64 number = 0;
            return integer(&number);
        }
        }
    }

private:
    void skipSpace()
    {
        if (m_p != m_end && uchar(*m_p) > ' ')
            return; // the usual case: pages come without spaces
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    const char *m_p;
    const char *m_end;
};

// As Sandbox::fromListed() holds a JSON number to int (toIntegral).
int heldToInt(qint64 value)
{
    return int(qBound(
        qint64(std::numeric_limits<int>::min()), value, qint64(std::numeric_limits<int>::max())));
}

enum ListedField : quint8
{
    SandboxIdField,
    TemplateIdField,
    AliasField,
    ClientIdField,
    EnvdVersionField,
    EnvdAccessTokenField,
    DomainField,
    StartedAtField,
    EndAtField,
    CpuCountField,
    MemoryField,
    DiskField,
    StateField,
    MetadataField,
    InternetField,
    UnknownField
};

// The string members, in ListedField's order from SandboxIdField to DomainField.
constexpr QString Sandbox::*textMembers[]
    = { &Sandbox::sandboxId, &Sandbox::templateId, &Sandbox::alias, &Sandbox::clientId,
          &Sandbox::envdVersion, &Sandbox::envdAccessToken, &Sandbox::domain };

/// Which field `key` names. Servers write the fields of every sandbox in the same
/// order, so the search starts after the field found last (`*next`): one comparison a
/// field instead of up to fifteen. The local backend's (sorted) order comes first.
ListedField listedField(QLatin1String key, qsizetype *next)
{
    static const std::pair<QLatin1String, ListedField> fields[] = {
        { QLatin1String("alias"), AliasField },
        { QLatin1String("allowInternetAccess"), InternetField },
        { QLatin1String("clientID"), ClientIdField },
        { QLatin1String("cpuCount"), CpuCountField },
        { QLatin1String("diskSizeMB"), DiskField },
        { QLatin1String("domain"), DomainField },
        { QLatin1String("endAt"), EndAtField },
        { QLatin1String("envdAccessToken"), EnvdAccessTokenField },
        { QLatin1String("envdVersion"), EnvdVersionField },
        { QLatin1String("memoryMB"), MemoryField },
        { QLatin1String("metadata"), MetadataField },
        { QLatin1String("sandboxID"), SandboxIdField },
        { QLatin1String("startedAt"), StartedAtField },
        { QLatin1String("state"), StateField },
        { QLatin1String("templateID"), TemplateIdField },
    };
    constexpr qsizetype count = qsizetype(std::size(fields));
    qsizetype at = *next;
    for (qsizetype i = 0; i < count; ++i, at = at + 1 == count ? 0 : at + 1) {
        if (key == fields[at].first) {
            *next = at + 1 == count ? 0 : at + 1;
            return fields[at].second;
        }
    }
    return UnknownField;
}

/// A page's sandboxes mostly share their template, alias, client, envd version and
/// domain: each such value is read once per page and shared, not allocated again.
class RepeatedText
{
public:
    QString get(ListedField field, QLatin1String text)
    {
        // A null string equals "" but is what a missing or null value reads as.
        QString &last = m_last[field];
        if (last.isNull() || last != text)
            last = QString(text);
        return last;
    }

private:
    QString m_last[std::size(textMembers)];
};

/// What one page's sandboxes have in common, for reading the next.
struct PageContext
{
    RepeatedText repeated;
    qsizetype nextField = 0;
};

std::optional<Sandbox> readPlainListed(PlainJsonReader *reader, PageContext *page)
{
    if (!reader->take('{'))
        return std::nullopt;
    Sandbox s;
    quint32 seen = 0;
    if (!reader->take('}')) {
        do {
            QLatin1String key;
            if (!reader->string(&key) || !reader->take(':'))
                return std::nullopt;
            const ListedField field = listedField(key, &page->nextField);
            if (field == UnknownField) {
                if (!reader->skipValue())
                    return std::nullopt;
                continue;
            }
            if (seen & (1u << field))
                return std::nullopt; // which one would count is Qt's to say
            seen |= 1u << field;
            QLatin1String text;
            qint64 number = 0;
            switch (field) {
            case SandboxIdField:
                if (!reader->string(&text))
                    return std::nullopt;
                s.sandboxId = QString(text);
                break;
            case TemplateIdField:
                if (!reader->string(&text))
                    return std::nullopt;
                s.templateId = page->repeated.get(field, text);
                break;
            case AliasField:
            case ClientIdField:
            case EnvdVersionField:
            case EnvdAccessTokenField:
            case DomainField:
                if (reader->literal("null"))
                    break;
                if (!reader->string(&text))
                    return std::nullopt;
                s.*textMembers[field] = page->repeated.get(field, text);
                break;
            case StartedAtField:
            case EndAtField: {
                if (!reader->string(&text))
                    return std::nullopt;
                const QDateTime time = parseIsoTime(text);
                if (!time.isValid())
                    return std::nullopt;
                (field == StartedAtField ? s.startedAt : s.endAt) = time;
                break;
            }
            case CpuCountField:
            case MemoryField:
                if (!reader->integer(&number))
                    return std::nullopt;
                (field == CpuCountField ? s.cpuCount : s.memoryMB) = heldToInt(number);
                break;
            case DiskField:
                if (!reader->integer(&number))
                    return std::nullopt;
                // QJsonValue::toInt(): an integer out of int's range is 0.
                s.diskSizeMB = heldToInt(number) == number ? int(number) : 0;
                break;
            case StateField: {
                if (!reader->string(&text))
                    return std::nullopt;
                const auto state = sandboxStateFromString(text);
                if (!state)
                    return std::nullopt;
                s.state = *state;
                break;
            }
            case MetadataField:
                if (reader->literal("null"))
                    break;
                if (!reader->take('{'))
                    return std::nullopt;
                if (reader->take('}'))
                    break;
                do {
                    QLatin1String name;
                    if (!reader->string(&name) || !reader->take(':') || !reader->string(&text))
                        return std::nullopt;
                    const QString metadataKey(name);
                    if (s.metadata.contains(metadataKey))
                        return std::nullopt;
                    s.metadata.insert(metadataKey, QString(text));
                } while (reader->take(','));
                if (!reader->take('}'))
                    return std::nullopt;
                break;
            case InternetField:
                if (reader->literal("true"))
                    s.allowInternetAccess = true;
                else if (reader->literal("false"))
                    s.allowInternetAccess = false;
                else if (!reader->literal("null"))
                    return std::nullopt;
                break;
            case UnknownField:
                break;
            }
        } while (reader->take(','));
        if (!reader->take('}'))
            return std::nullopt;
    }
    constexpr quint32 required = (1u << SandboxIdField) | (1u << TemplateIdField)
        | (1u << StartedAtField) | (1u << EndAtField) | (1u << CpuCountField) | (1u << MemoryField)
        | (1u << StateField);
    if ((seen & required) != required || s.sandboxId.isEmpty())
        return std::nullopt;
    return s;
}

} // namespace

std::optional<QList<Sandbox>> readPlainListedPage(const QByteArray &body)
{
    PlainJsonReader reader(body);
    if (!reader.take('['))
        return std::nullopt;
    QList<Sandbox> page;
    PageContext context;
    if (!reader.take(']')) {
        do {
            std::optional<Sandbox> sandbox = readPlainListed(&reader, &context);
            if (!sandbox)
                return std::nullopt;
            page.append(std::move(*sandbox));
        } while (reader.take(','));
        if (!reader.take(']'))
            return std::nullopt;
    }
    if (!reader.atEnd())
        return std::nullopt;
    return page;
}

} // namespace sd
