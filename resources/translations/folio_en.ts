<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>folio::AuditPanel</name>
    <message numerus="yes">
        <source>%n page(s), no findings</source>
        <translation>
            <numerusform>%n page, no findings</numerusform>
            <numerusform>%n pages, no findings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n warning</numerusform>
            <numerusform>%n warnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n request(s) in %1 ms</source>
        <translation>
            <numerusform>%n request in %1 ms</numerusform>
            <numerusform>%n requests in %1 ms</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::CompareView</name>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n change</numerusform>
            <numerusform>%n changes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::ImportDialog</name>
    <message numerus="yes">
        <source>%n server(s) found in &quot;%1&quot;.</source>
        <translation>
            <numerusform>%n server found in &quot;%1&quot;.</numerusform>
            <numerusform>%n servers found in &quot;%1&quot;.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::ListView</name>
    <message numerus="yes">
        <source>%n row(s) copied as JSON</source>
        <translation>
            <numerusform>%n row copied as JSON</numerusform>
            <numerusform>%n rows copied as JSON</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n row(s)</source>
        <translation>
            <numerusform>%1 of %n row</numerusform>
            <numerusform>%1 of %n rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s)</source>
        <translation>
            <numerusform>%n row</numerusform>
            <numerusform>%n rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n finding(s)</source>
        <translation>
            <numerusform>%n finding</numerusform>
            <numerusform>%n findings</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::PageStrip</name>
    <message numerus="yes">
        <source>+%n more duplicate link(s), not drawn</source>
        <translation>
            <numerusform>+%n more duplicate link, not drawn</numerusform>
            <numerusform>+%n more duplicate links, not drawn</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n earlier walk(s)</source>
        <translation>
            <numerusform>%n earlier walk</numerusform>
            <numerusform>%n earlier walks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page(s)</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::SchemaForm</name>
    <message numerus="yes">
        <source> (and %n more)</source>
        <translation>
            <numerusform> (and %n more)</numerusform>
            <numerusform> (and %n more)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::ServerListActions</name>
    <message numerus="yes">
        <source>Imported %n server(s). Nothing was started.</source>
        <translation>
            <numerusform>Imported %n server. Nothing was started.</numerusform>
            <numerusform>Imported %n servers. Nothing was started.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n change(s) since the trusted version will no longer be reported.</source>
        <translation>
            <numerusform>%n change since the trusted version will no longer be reported.</numerusform>
            <numerusform>%n changes since the trusted version will no longer be reported.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::ServerListModel</name>
    <message numerus="yes">
        <source>%n finding(s) in its lists</source>
        <translation>
            <numerusform>%n finding in its lists</numerusform>
            <numerusform>%n findings in its lists</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::SessionFiles</name>
    <message numerus="yes">
        <source>Saved a snapshot (%n item(s)) to %1</source>
        <translation>
            <numerusform>Saved a snapshot (%n item) to %1</numerusform>
            <numerusform>Saved a snapshot (%n items) to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Saved a snapshot (%n item(s)) to %1; some lists stopped short</source>
        <translation>
            <numerusform>Saved a snapshot (%n item) to %1; some lists stopped short</numerusform>
            <numerusform>Saved a snapshot (%n items) to %1; some lists stopped short</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::TasksView</name>
    <message numerus="yes">
        <source>polled %n time(s)</source>
        <translation>
            <numerusform>polled %n time</numerusform>
            <numerusform>polled %n times</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n status notification(s)</source>
        <translation>
            <numerusform>%n status notification</numerusform>
            <numerusform>%n status notifications</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>folio::TrafficView</name>
    <message numerus="yes">
        <source>%n HTTP exchange(s) exported to %1</source>
        <translation>
            <numerusform>%n HTTP exchange exported to %1</numerusform>
            <numerusform>%n HTTP exchanges exported to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) exported to %1</source>
        <translation>
            <numerusform>%n message exported to %1</numerusform>
            <numerusform>%n messages exported to %1</numerusform>
        </translation>
    </message>
</context>
</TS>
