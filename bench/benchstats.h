#pragma once

#include <QList>
#include <QString>

#include <algorithm>
#include <cstdio>

namespace bench {

// Order statistics of a series of measurements (nearest-rank percentiles).
struct Stats
{
    double median = 0;
    double min = 0;
    double max = 0;
    double p95 = 0;
    int count = 0;

    static Stats of(QList<double> values)
    {
        Stats s;
        s.count = int(values.size());
        if (values.isEmpty())
            return s;
        std::sort(values.begin(), values.end());
        const auto at = [&values](double q) {
            const qsizetype i = qsizetype(q * double(values.size() - 1) + 0.5);
            return values.at(qBound<qsizetype>(0, i, values.size() - 1));
        };
        s.median = values.size() % 2 ? values.at(values.size() / 2)
                                     : (values.at(values.size() / 2 - 1) + values.at(values.size() / 2)) / 2;
        s.min = values.constFirst();
        s.max = values.constLast();
        s.p95 = at(0.95);
        return s;
    }

    // "median 1.23 (min 1.01, max 2.40) unit"
    QString text(const char *unit, int decimals = 2, bool withP95 = false) const
    {
        QString t = QStringLiteral("median %1 (min %2, max %3")
                        .arg(median, 0, 'f', decimals)
                        .arg(min, 0, 'f', decimals)
                        .arg(max, 0, 'f', decimals);
        if (withP95)
            t += QStringLiteral(", p95 %1").arg(p95, 0, 'f', decimals);
        return t + QStringLiteral(") ") + QString::fromLatin1(unit);
    }
};

inline void line(const QString &label, const QString &value)
{
    std::printf("  %-44s %s\n", label.toUtf8().constData(), value.toUtf8().constData());
    std::fflush(stdout);
}

inline void heading(const QString &title)
{
    std::printf("\n== %s ==\n", title.toUtf8().constData());
    std::fflush(stdout);
}

} // namespace bench
