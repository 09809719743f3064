#pragma once

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>

namespace testsupport {

// The settings of a test profile (QStandardPaths' test mode, organization FolioTest, application
// appName), never the user's: for initTestCase().
inline void useTestSettings(const char *appName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("FolioTest"));
    QCoreApplication::setApplicationName(QLatin1String(appName));
}

// The same, emptied of what an earlier run left there.
inline void useEmptyTestSettings(const char *appName)
{
    useTestSettings(appName);
    QSettings().clear();
}

} // namespace testsupport
