"""Named schema migrations, applied in order and recorded, so an old index upgrades in place
and a newer one is refused instead of misread."""
from __future__ import annotations

import sqlite3

from ...errors import IndexVersionError
from ...query import MARKS
from ...storage import unit_id

MIGRATIONS = []


def migration(fn):
    MIGRATIONS.append(fn)
    return fn


@migration
def m001_create_tables() -> str:
    return """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
    CREATE TABLE files (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,      -- POSIX, relative to the indexed folder
        kind TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        hash TEXT NOT NULL,             -- sha1 of the bytes: catches renames and touch-only changes
        date REAL NOT NULL,             -- when the content was made (EXIF) or last modified
        title TEXT NOT NULL DEFAULT '',
        indexed_at REAL NOT NULL
    );
    CREATE INDEX files_hash ON files(hash);
    CREATE TABLE units (
        id INTEGER PRIMARY KEY,
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        page INTEGER,
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        lang TEXT,
        text TEXT NOT NULL,
        text_hash TEXT NOT NULL,        -- key into embeddings: no text is embedded twice
        path TEXT NOT NULL,             -- the file's path, searchable by keywords
        extra TEXT NOT NULL DEFAULT '', -- identifier parts and joined IDs
        ids TEXT NOT NULL DEFAULT ''    -- normalised ID-like tokens, for fuzzy ID search
    );
    CREATE INDEX units_file ON units(file_id);
    CREATE INDEX units_hash ON units(text_hash);
    CREATE TABLE embeddings (
        text_hash TEXT NOT NULL,
        model TEXT NOT NULL,
        vector BLOB NOT NULL,           -- little-endian float32
        PRIMARY KEY (text_hash, model)
    ) WITHOUT ROWID;
    CREATE TABLE errors (
        path TEXT PRIMARY KEY,
        reason TEXT NOT NULL,
        at REAL NOT NULL
    );

    -- The database keeps both full-text indexes in step with `units`.
    CREATE VIRTUAL TABLE units_fts USING fts5(
        text, title, path, extra, content='units', content_rowid='id',
        tokenize="porter unicode61 remove_diacritics 2 tokenchars '_'"
    );
    CREATE VIRTUAL TABLE ids_fts USING fts5(ids, content='units', content_rowid='id', tokenize='trigram');
    CREATE TRIGGER units_ai AFTER INSERT ON units BEGIN
        INSERT INTO units_fts(rowid, text, title, path, extra) VALUES (new.id, new.text, new.title, new.path, new.extra);
        INSERT INTO ids_fts(rowid, ids) VALUES (new.id, new.ids);
    END;
    CREATE TRIGGER units_ad AFTER DELETE ON units BEGIN
        INSERT INTO units_fts(units_fts, rowid, text, title, path, extra)
            VALUES ('delete', old.id, old.text, old.title, old.path, old.extra);
        INSERT INTO ids_fts(ids_fts, rowid, ids) VALUES ('delete', old.id, old.ids);
    END;
    CREATE TRIGGER units_au AFTER UPDATE ON units BEGIN
        INSERT INTO units_fts(units_fts, rowid, text, title, path, extra)
            VALUES ('delete', old.id, old.text, old.title, old.path, old.extra);
        INSERT INTO ids_fts(ids_fts, rowid, ids) VALUES ('delete', old.id, old.ids);
        INSERT INTO units_fts(rowid, text, title, path, extra) VALUES (new.id, new.text, new.title, new.path, new.extra);
        INSERT INTO ids_fts(rowid, ids) VALUES (new.id, new.ids);
    END;
    """


@migration
def m002_suggestions() -> str:
    # Example queries made from each file's content at index time (scent.suggest); files indexed
    # before this migration have none until they are indexed again.
    return """
    CREATE TABLE suggestions (
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        text TEXT NOT NULL
    );
    CREATE INDEX suggestions_file ON suggestions(file_id);
    """


@migration
def m003_error_levels() -> str:
    # "skipped": the file is not (or not newly) indexed; "warning": indexed, but not completely
    # (no OCR, pages beyond max_pdf_pages), so `scent status` can say so.
    return "ALTER TABLE errors ADD COLUMN level TEXT NOT NULL DEFAULT 'skipped';"


@migration
def m004_unit_parts() -> str:
    # Extra vectors of a unit (its sentences), keyed like units' own into `embeddings`.
    return """
    CREATE TABLE unit_parts (
        unit_id INTEGER NOT NULL REFERENCES units(id) ON DELETE CASCADE,
        text_hash TEXT NOT NULL
    );
    CREATE INDEX unit_parts_unit ON unit_parts(unit_id);
    CREATE INDEX unit_parts_hash ON unit_parts(text_hash);
    """


@migration
def m005_marks_inside_words() -> str:
    # unicode61 splits words at combining marks (Devanagari and Tamil vowel signs, viramas): "जीरा"
    # was indexed as "ज" + "र", so any word sharing its first letter matched. Marks become token
    # characters and the keyword index is rebuilt from `units` (its content table).
    return f"""
    DROP TABLE units_fts;
    CREATE VIRTUAL TABLE units_fts USING fts5(
        text, title, path, extra, content='units', content_rowid='id',
        tokenize="porter unicode61 remove_diacritics 2 tokenchars '_{MARKS}'"
    );
    INSERT INTO units_fts(units_fts) VALUES ('rebuild');
    """


@migration
def m006_picture_vectors() -> str:
    # Vectors of pictures' pixels from an image-text model (scent.image_text), apart from the
    # text model's `embeddings`: another space, another dimension. `key` names one picture of one
    # file version; the model's id is kept beside each vector so two models' are never mixed.
    return """
    CREATE TABLE picture_vectors (
        key TEXT NOT NULL,
        model TEXT NOT NULL,
        vector BLOB NOT NULL,           -- little-endian float32
        PRIMARY KEY (key, model)
    ) WITHOUT ROWID;
    CREATE TABLE unit_pictures (
        unit_id INTEGER PRIMARY KEY REFERENCES units(id) ON DELETE CASCADE,
        key TEXT NOT NULL
    );
    CREATE INDEX unit_pictures_key ON unit_pictures(key);
    """


@migration
def m007_stable_ids_and_vector_fields() -> str:
    # Unit ids become stable: made from the file's key (its path when first indexed, kept across
    # renames) and the unit's place in the file, so a distributed engine and the catalog agree on
    # them and a rewritten file's units keep theirs. Vectors move from text-keyed tables into named
    # fields of units (`unit`, `sentences`, `picture`); `seq` orders them for appending caches.
    return """
    ALTER TABLE files ADD COLUMN key TEXT;
    UPDATE files SET key = path;
    CREATE UNIQUE INDEX files_key ON files(key);
    ALTER TABLE units ADD COLUMN place INTEGER NOT NULL DEFAULT 0;  -- 0, 1, ... in the file's reading order
    UPDATE units SET place = (SELECT COUNT(*) FROM units o WHERE o.file_id = units.file_id AND o.id < units.id);
    CREATE TEMP TABLE new_ids AS
        SELECT u.id AS old, scent_unit_id(f.key, u.place) AS new FROM units u JOIN files f ON f.id = u.file_id;
    CREATE UNIQUE INDEX temp.new_ids_old ON new_ids(old);
    CREATE TABLE vector_fields (
        name TEXT PRIMARY KEY,
        model TEXT NOT NULL,
        dims INTEGER NOT NULL,
        multi INTEGER NOT NULL,         -- 1: many vectors per unit, scored by the best
        storage TEXT NOT NULL
    );
    CREATE TABLE vectors (
        seq INTEGER PRIMARY KEY,
        field TEXT NOT NULL,
        unit_id INTEGER NOT NULL,
        vector BLOB NOT NULL            -- little-endian float32
    );
    CREATE INDEX vectors_unit ON vectors(unit_id, field);
    INSERT INTO vector_fields SELECT 'unit', value, (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'dim'), 0,
        'float32' FROM meta WHERE key = 'model';
    INSERT INTO vector_fields SELECT 'sentences', model, dims, 1, storage FROM vector_fields
        WHERE name = 'unit' AND EXISTS (SELECT 1 FROM unit_parts);
    INSERT INTO vector_fields SELECT 'picture', value, (SELECT CAST(value AS INTEGER) FROM meta
        WHERE key = 'picture_dim'), 0, 'float32' FROM meta WHERE key = 'picture_model_id';
    INSERT INTO vectors (field, unit_id, vector)
        SELECT 'unit', n.new, e.vector FROM units u JOIN temp.new_ids n ON n.old = u.id
        JOIN embeddings e ON e.text_hash = u.text_hash AND e.model = (SELECT value FROM meta WHERE key = 'model')
        ORDER BY u.id;
    INSERT INTO vectors (field, unit_id, vector)
        SELECT 'sentences', n.new, e.vector FROM unit_parts p JOIN temp.new_ids n ON n.old = p.unit_id
        JOIN embeddings e ON e.text_hash = p.text_hash AND e.model = (SELECT value FROM meta WHERE key = 'model')
        ORDER BY p.rowid;
    INSERT INTO vectors (field, unit_id, vector)
        SELECT 'picture', n.new, v.vector FROM unit_pictures p JOIN temp.new_ids n ON n.old = p.unit_id
        JOIN picture_vectors v ON v.key = p.key AND v.model = (SELECT value FROM meta WHERE key = 'picture_model_id')
        ORDER BY p.unit_id;
    DROP TABLE unit_parts;
    DROP TABLE unit_pictures;
    DROP TABLE picture_vectors;
    DROP TABLE embeddings;
    UPDATE units SET id = (SELECT new FROM temp.new_ids WHERE old = units.id);
    DROP TABLE temp.new_ids;
    DELETE FROM meta WHERE key IN ('model', 'dim', 'picture_model_id', 'picture_dim');
    """


@migration
def m008_vector_snapshots() -> str:
    # Vectors are read through snapshots (snapshot.py) plus the rows written since. `vectors`
    # keeps which unit has which row of which field; the bytes of rows not yet in a snapshot are
    # in `vector_tail` (int8 fields: once in a snapshot they live only there; float32 fields keep
    # theirs). `seq` never goes back (AUTOINCREMENT: a reader's "rows after seq N" misses
    # nothing), every deleted row leaves a tombstone for readers that hold it, and filter
    # attributes are kept as small label codes. Old blobs stay float32; new fields store what
    # `vector_storage` says (vector_fields.storage). text_hash needs no index of its own any more.
    return """
    CREATE TABLE vectors_new (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        field TEXT NOT NULL,
        unit_id INTEGER NOT NULL
    );
    CREATE TABLE vector_tail (
        seq INTEGER PRIMARY KEY,
        vector BLOB NOT NULL            -- codes.encode(): float32, or a float32 scale and int8 codes
    );
    INSERT INTO vectors_new (seq, field, unit_id) SELECT seq, field, unit_id FROM vectors ORDER BY seq;
    INSERT INTO vector_tail (seq, vector) SELECT seq, vector FROM vectors ORDER BY seq;
    DROP TABLE vectors;
    ALTER TABLE vectors_new RENAME TO vectors;
    CREATE INDEX vectors_unit ON vectors(unit_id, field);
    DROP INDEX IF EXISTS units_hash;
    CREATE TABLE vector_tombstones (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        field TEXT NOT NULL,
        seq INTEGER NOT NULL
    );
    CREATE INDEX vector_tombstones_field ON vector_tombstones(field, id);
    CREATE TRIGGER vectors_ad AFTER DELETE ON vectors BEGIN
        INSERT INTO vector_tombstones (field, seq) VALUES (old.field, old.seq);
        DELETE FROM vector_tail WHERE seq = old.seq;
    END;
    CREATE TABLE vector_labels (code INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE);
    INSERT INTO vector_labels (label) SELECT kind FROM units UNION SELECT kind FROM files
        UNION SELECT lang FROM units WHERE lang IS NOT NULL AND lang != '';
    """


@migration
def m009_dense_unit_rows() -> str:
    # Stable ids are random 63-bit numbers. As the rowid of `units` and of both FTS5 indexes they
    # cost a third of the index: FTS5 delta-encodes the rowids in every posting list (a gap of
    # 2^46 takes 7 bytes, a gap of 10 takes one) and random inserts leave B-tree pages a third
    # empty. Measured on 100k benchmark units: keyword index 999 -> 357 bytes a unit, units
    # 1,111 -> 970. So rows get a dense local rowid (`row`, in file and reading order, new ones
    # appended) and the stable id becomes an indexed column.
    return f"""
    DROP TRIGGER units_ai;
    DROP TRIGGER units_ad;
    DROP TRIGGER units_au;
    DROP TABLE units_fts;
    DROP TABLE ids_fts;
    CREATE TABLE units_new (
        row INTEGER PRIMARY KEY,        -- dense, local to this database: what FTS5 indexes
        id INTEGER NOT NULL UNIQUE,     -- the stable unit id (storage.unit_id) every engine shares
        file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
        place INTEGER NOT NULL,         -- 0, 1, ... in the file's reading order
        kind TEXT NOT NULL,
        page INTEGER,
        start INTEGER NOT NULL,
        "end" INTEGER NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        lang TEXT,
        text TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        path TEXT NOT NULL,             -- the file's path, searchable by keywords
        extra TEXT NOT NULL DEFAULT '', -- identifier parts and joined IDs
        ids TEXT NOT NULL DEFAULT ''    -- normalised ID-like tokens, for fuzzy ID search
    );
    INSERT INTO units_new (id, file_id, place, kind, page, start, "end", title, lang, text, text_hash, path, extra, ids)
        SELECT id, file_id, place, kind, page, start, "end", title, lang, text, text_hash, path, extra, ids
        FROM units ORDER BY file_id, place;
    DROP TABLE units;
    ALTER TABLE units_new RENAME TO units;
    CREATE INDEX units_file ON units(file_id);
    CREATE VIRTUAL TABLE units_fts USING fts5(
        text, title, path, extra, content='units', content_rowid='row',
        tokenize="porter unicode61 remove_diacritics 2 tokenchars '_{MARKS}'"
    );
    CREATE VIRTUAL TABLE ids_fts USING fts5(ids, content='units', content_rowid='row', tokenize='trigram');
    INSERT INTO units_fts(units_fts) VALUES ('rebuild');
    INSERT INTO ids_fts(ids_fts) VALUES ('rebuild');
    CREATE TRIGGER units_ai AFTER INSERT ON units BEGIN
        INSERT INTO units_fts(rowid, text, title, path, extra) VALUES (new.row, new.text, new.title, new.path, new.extra);
        INSERT INTO ids_fts(rowid, ids) VALUES (new.row, new.ids);
    END;
    CREATE TRIGGER units_ad AFTER DELETE ON units BEGIN
        INSERT INTO units_fts(units_fts, rowid, text, title, path, extra)
            VALUES ('delete', old.row, old.text, old.title, old.path, old.extra);
        INSERT INTO ids_fts(ids_fts, rowid, ids) VALUES ('delete', old.row, old.ids);
    END;
    CREATE TRIGGER units_au AFTER UPDATE ON units BEGIN
        INSERT INTO units_fts(units_fts, rowid, text, title, path, extra)
            VALUES ('delete', old.row, old.text, old.title, old.path, old.extra);
        INSERT INTO ids_fts(ids_fts, rowid, ids) VALUES ('delete', old.row, old.ids);
        INSERT INTO units_fts(rowid, text, title, path, extra) VALUES (new.row, new.text, new.title, new.path, new.extra);
        INSERT INTO ids_fts(rowid, ids) VALUES (new.row, new.ids);
    END;
    """


@migration
def m010_file_readers() -> str:
    # Who may read each file (scent.access), recorded at index time and filtered on in every
    # candidate list. Files indexed before get their readers from the file system now (the
    # folder's mode bits and rules file), so an upgraded index is filtered from its first query;
    # a file gone meanwhile gets nobody until the next run removes it. Errors keep the readers of
    # the path they are about: a status list shows a user only the problems of files they may
    # read. Each distinct set of readers is a vector label, as kinds and languages are.
    return """
    ALTER TABLE files ADD COLUMN access TEXT NOT NULL DEFAULT '';
    ALTER TABLE errors ADD COLUMN access TEXT NOT NULL DEFAULT '';
    UPDATE files SET access = scent_access(path);
    UPDATE errors SET access = scent_access(path);
    INSERT OR IGNORE INTO vector_labels (label) SELECT DISTINCT 'acl:' || access FROM files;
    """


@migration
def m011_files_inside_files() -> str:
    # A member of an archive or an attachment of a message is a file of the index at path
    # CONTAINER#NAME; `container` names the file it is inside ("" for a file of the folder), so
    # change detection can tell members from files whose own name holds a '#'.
    return """
    ALTER TABLE files ADD COLUMN container TEXT NOT NULL DEFAULT '';
    CREATE INDEX files_container ON files(container) WHERE container != '';
    """


@migration
def m012_unsupported_files() -> str:
    # Files of kinds scent does not read, as the last walk of the whole folder found them
    # (scent.skipped): how many per extension and readers, and the first few paths of each, with
    # the readers a status list is filtered by. An upgraded index has none until its next run.
    return """
    CREATE TABLE unsupported (
        ext TEXT NOT NULL,
        access TEXT NOT NULL,
        files INTEGER NOT NULL,
        PRIMARY KEY (ext, access)
    );
    CREATE TABLE unsupported_files (
        path TEXT PRIMARY KEY,
        ext TEXT NOT NULL,
        access TEXT NOT NULL
    );
    """


@migration
def m013_suggestion_pages() -> str:
    # Example queries are made per page too (scent.suggest: a page's topic, detail and visual
    # query), for the chips and `scent eval --synthetic`. The rows of an upgraded index were all
    # made for whole files; its page queries come as files are indexed again.
    return """
    ALTER TABLE suggestions ADD COLUMN page INTEGER;
    ALTER TABLE suggestions ADD COLUMN aspect TEXT NOT NULL DEFAULT 'file';
    """


@migration
def m014_unit_dates() -> str:
    # A unit's own date where its file holds many dated parts: each message of an mbox, each
    # event of a calendar (NULL: the file's date). Filters and results read COALESCE(u.date,
    # f.date). The mailboxes and calendars of an upgraded index are read again by its next run
    # (their size and time made stale, so the change check reads them) to get their dates.
    return """
    ALTER TABLE units ADD COLUMN date REAL;
    UPDATE files SET mtime_ns = -1, hash = '' WHERE kind IN ('email', 'calendar') AND container = '';
    """


@migration
def m015_unit_spans() -> str:
    # The last moment a unit covers, where it lasts past its date: a recurring event's last
    # occurrence (far in the future for one without end), a multi-day event's end. An `after`
    # filter lets such a unit through while it still runs (scent.units.Section.until). The
    # calendars of an upgraded index are read again by its next run to get their spans.
    return """
    ALTER TABLE units ADD COLUMN until REAL;
    UPDATE files SET mtime_ns = -1, hash = '' WHERE kind = 'calendar' AND container = '';
    """


@migration
def m016_unit_translations() -> str:
    # A unit's machine translation into English (scent.translate), shown beside its own words when
    # it answers a question in another language. Only its vector was kept before: a unit of an
    # upgraded index gets the text when its file is read again (scent.indexing translates a unit
    # whose kept vector has no text).
    return """
    ALTER TABLE units ADD COLUMN english TEXT NOT NULL DEFAULT '';
    """


@migration
def m017_file_parts() -> str:
    # The file a file is a part of (a Live Photo's moving part names its photo): a search shows
    # them as one result. A file of an upgraded index gets it when it is read again.
    return """
    ALTER TABLE files ADD COLUMN part_of TEXT NOT NULL DEFAULT '';
    CREATE INDEX files_part_of ON files(part_of);
    """



@migration
def m018_reader_versions() -> str:
    # Which reader, at which version, read each file (scent.extract.reader_of): a run reads again
    # the files a newer reader would read otherwise. A file of an upgraded index has none, so it is
    # read again once.
    return """
    ALTER TABLE files ADD COLUMN reader TEXT NOT NULL DEFAULT '';
    """


@migration
def m019_unit_lines() -> str:
    # The line of its file a unit of a note or code begins at (UnitRecord.line), so a result says
    # path:line and an editor opens it there. A unit of an upgraded index has none until its file
    # is read again.
    return """
    ALTER TABLE units ADD COLUMN line INTEGER;
    """

def _access_function(db: sqlite3.Connection):
    """scent_access(path): the readers of an indexed path, from the folder the index names."""
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'root'").fetchone()
    except sqlite3.OperationalError:  # a new database: no meta yet, and no files to ask about
        row = None
    made = []

    def readers(path: str) -> str:
        from ...access import NOBODY, Access
        from ...errors import ScentError

        if row is None:
            return NOBODY
        if not made:
            try:
                made.append(Access(row[0]))
            except ScentError:  # a bad rules file: nobody, until the next index run says what is wrong
                made.append(None)
        return made[0].readers(path) if made[0] is not None else NOBODY

    return readers


def migrate(db: sqlite3.Connection) -> None:
    db.create_function("scent_unit_id", 2, unit_id, deterministic=True)
    db.create_function("scent_access", 1, _access_function(db))
    db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
    done = {row[0] for row in db.execute("SELECT name FROM migrations")}
    known = {fn.__name__ for fn in MIGRATIONS}
    newer = sorted(done - known)
    if newer:
        raise IndexVersionError(
            f"this index was written by a newer scent (migrations {', '.join(newer)}); upgrade scent or re-index")
    for fn in MIGRATIONS:
        if fn.__name__ in done:
            continue
        # A migration and its record commit together or not at all.
        try:
            db.executescript(f"BEGIN IMMEDIATE;\n{fn()}\n"
                             f"INSERT INTO migrations VALUES ('{fn.__name__}', julianday('now'));\nCOMMIT;")
        except sqlite3.Error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            # Another process (a search opening the index a rebuild has just made) may have applied it
            # between our reading the records and taking the write lock: then there is nothing to do.
            if db.execute("SELECT 1 FROM migrations WHERE name = ?", (fn.__name__,)).fetchone():
                continue
            raise
