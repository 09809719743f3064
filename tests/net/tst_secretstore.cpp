#include <QTest>
class tst_SecretStore : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(tst_SecretStore)
#include "tst_secretstore.moc"
