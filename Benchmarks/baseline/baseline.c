/*
 * The comparison program of issue 6: what a competent C programmer writes in an
 * afternoon. Reads a USGS CSV (columns found by header name, RFC 4180 quotes),
 * keeps the LIMIT most recent events (0 = all), draws them largest first with
 * cairo_arc + cairo_fill on a transparent 2048x1024 plate carree, and writes the
 * PNG with Cairo's own writer. Same symbol rule as quakemap: diameter 0.75 m^2
 * (at least 2 px, magnitude capped at 8.2), fill RGBA(1, 1 - 0.015 m^2, 0.211, 0.6).
 *
 *   baseline INPUT.csv OUTPUT.png [LIMIT]
 */
#include <cairo/cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char time[32]; double lat, lon, mag, diameter; } Event;

enum { MAX_FIELDS = 64 };

/* Splits one record in place; returns the field count. Handles quotes and "" inside them. */
static int split(char *line, char **fields) {
    int count = 0;
    char *p = line;
    for (;;) {
        if (count == MAX_FIELDS) return count;
        if (*p == '"') {
            char *out = ++p;
            fields[count++] = out;
            for (;;) {
                if (*p == '\0') break;
                if (*p == '"') {
                    if (p[1] == '"') { *out++ = '"'; p += 2; continue; }
                    p++;
                    break;
                }
                *out++ = *p++;
            }
            while (*p && *p != ',') p++;
            *out = '\0';
        } else {
            fields[count++] = p;
            while (*p && *p != ',') p++;
        }
        if (*p != ',') { *p = '\0'; return count; }
        *p++ = '\0';
    }
}

static int column(char **header, int count, const char *name) {
    for (int i = 0; i < count; i++) if (strcmp(header[i], name) == 0) return i;
    return -1;
}

static int newest_first(const void *a, const void *b) {
    return -strcmp(((const Event *)a)->time, ((const Event *)b)->time);
}

static int largest_first(const void *a, const void *b) {
    double d = ((const Event *)b)->diameter - ((const Event *)a)->diameter;
    return (d > 0) - (d < 0);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: baseline INPUT.csv OUTPUT.png [LIMIT]\n"); return 64; }
    long limit = argc > 3 ? atol(argv[3]) : 300;
    FILE *in = fopen(argv[1], "r");
    if (!in) { perror(argv[1]); return 66; }

    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    char *fields[MAX_FIELDS];
    if ((length = getline(&line, &capacity, in)) <= 0) { fprintf(stderr, "empty\n"); return 65; }
    line[strcspn(line, "\r\n")] = '\0';
    int header_count = split(line, fields);
    int c_time = column(fields, header_count, "time"), c_lat = column(fields, header_count, "latitude");
    int c_lon = column(fields, header_count, "longitude"), c_mag = column(fields, header_count, "mag");
    if (c_time < 0 || c_lat < 0 || c_lon < 0 || c_mag < 0) { fprintf(stderr, "missing columns\n"); return 65; }

    size_t count = 0, allocated = 1 << 16;
    Event *events = malloc(allocated * sizeof *events);
    while ((length = getline(&line, &capacity, in)) > 0) {
        line[strcspn(line, "\r\n")] = '\0';
        if (split(line, fields) != header_count || fields[c_mag][0] == '\0') continue;
        if (count == allocated) events = realloc(events, (allocated *= 2) * sizeof *events);
        Event *e = &events[count++];
        snprintf(e->time, sizeof e->time, "%s", fields[c_time]);
        e->lat = strtod(fields[c_lat], NULL);
        e->lon = strtod(fields[c_lon], NULL);
        e->mag = strtod(fields[c_mag], NULL);
    }
    fclose(in);
    free(line);

    if (limit > 0 && (size_t)limit < count) {
        qsort(events, count, sizeof *events, newest_first);
        count = (size_t)limit;
    }
    for (size_t i = 0; i < count; i++) {
        double m = events[i].mag < 0 ? 0 : events[i].mag > 8.2 ? 8.2 : events[i].mag;
        events[i].mag = m;
        events[i].diameter = 0.75 * m * m < 2 ? 2 : 0.75 * m * m;
    }
    qsort(events, count, sizeof *events, largest_first);

    const int width = 2048, height = 1024;
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    for (size_t i = 0; i < count; i++) {
        const Event *e = &events[i];
        double x = (e->lon + 180) / 360 * width, y = (90 - e->lat) / 180 * height;
        cairo_set_source_rgba(cr, 1.0, 1.0 - 0.015 * e->mag * e->mag, 0.211, 0.6);
        cairo_arc(cr, x, y, e->diameter / 2, 0, 6.283185307179586);
        cairo_fill(cr);
    }
    cairo_destroy(cr);
    cairo_status_t status = cairo_surface_write_to_png(surface, argv[2]);
    cairo_surface_destroy(surface);
    free(events);
    if (status != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "%s\n", cairo_status_to_string(status)); return 74; }
    return 0;
}
