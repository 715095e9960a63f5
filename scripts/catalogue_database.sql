-- What an administrator runs once in a new catalogue database, as a superuser:
--   createdb -O quakemap_writer quakes && psql -d quakes -f scripts/catalogue_database.sql
-- (the roles first: CREATE ROLE quakemap_writer LOGIN PASSWORD '…'; CREATE ROLE quakemap_reader LOGIN PASSWORD '…').
-- PostGIS is not a trusted extension: only a superuser may create it. The writer owns the database,
-- so the first `quakemap ingest` creates the tables; the reader may connect and read what it creates.
CREATE EXTENSION IF NOT EXISTS postgis;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO quakemap_reader;
ALTER DEFAULT PRIVILEGES FOR ROLE quakemap_writer IN SCHEMA public GRANT SELECT ON TABLES TO quakemap_reader;
DO $$ BEGIN
    EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO quakemap_reader', current_database());
END $$;
