#!/usr/bin/env python3
"""Generate a SYNTHETIC USGS "all_day" earthquake CSV feed for quakemap.

THIS DATA IS SYNTHETIC. Every row, id, time, place name and value is invented
by this script with a fixed random seed; nothing is copied from a real USGS
feed. Only the *format* (today's 22-column summary/all_day.csv layout) and the
general character of a real day (plate boundaries, dense local networks,
Gutenberg-Richter magnitudes, feed quirks) are imitated.

Standard library only. Output is byte-identical for the same --seed/--rows.

    python3 scripts/make_sample_feed.py            # -> Data/synthetic_all_day.csv
    python3 scripts/make_sample_feed.py --out /tmp/x.csv --rows 1000 --seed 7
"""
import argparse
import csv
import math
import os
import random
import struct
import sys
from datetime import datetime, timedelta, timezone

HEADER = ("time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,"
          "horizontalError,depthError,magError,magNst,status,locationSource,magSource").split(",")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
FEED_END = datetime(2026, 11, 21, 23, 58, 0, tzinfo=timezone.utc)
END_MS = int((FEED_END - EPOCH).total_seconds()) * 1000
DAY_MS = 86_400_000
START_MS = END_MS - DAY_MS
HOUR = 3_600_000
COMPASS = "N NNE NE ENE E ESE SE SSE S SSW SW WSW W WNW NW NNW".split()

# ---------------------------------------------------------------------------
# Global plate boundaries: rough hand-drawn (lat, lon) polylines. Longitudes may
# run past +-180 (they are unwrapped when sampling and normalised on output).
# key: (weight, ring_of_fire, p_intermediate, p_deep, landward (dlat, dlon) per
#       100 km depth, vertices, invented anchor towns (lat, lon, name))
# ---------------------------------------------------------------------------
PLATES = {
 "aleutians": (6, True, .25, 0, (.45, 0), [(60.5, -147.5), (59.5, -151.5), (58, -153.5), (56.5, -156), (55.3, -159), (54.5, -162), (53.6, -165), (52.8, -168), (52.2, -171), (51.7, -174), (51.4, -177), (51.3, -180), (51.6, -183), (52.3, -186), (53, -189), (54, -192.5), (55.5, -196)],
   [(55.3, -160.4, "Sand Point East, Alaska"), (52.9, -168.9, "Nikolski Cove, Alaska"), (52.2, -174.2, "Atka Landing, Alaska"), (51.9, -176.6, "Adakh Bay, Alaska"), (52.9, 173.2, "Chichagof Harbor West, Alaska")]),
 "kuril_japan": (12, True, .25, .08, (.2, -.65), [(56, 163.5), (54, 161.5), (52.5, 160), (51, 158), (49.5, 156), (48, 154), (46.5, 152), (45, 150), (43.8, 147.5), (42.5, 145), (41, 143.5), (39.5, 143), (38, 142.5), (36.5, 141.5), (35, 141), (33.5, 136.5), (32.5, 133), (31, 131.5), (29, 129.8), (27, 128.3), (25.5, 126.2), (24.5, 123), (24, 121.8)],
   [(53.2, 158.9, "Ust-Koryaksk, Russia"), (50.7, 156.2, "Sever'yansk, Russia"), (46.2, 150.6, "Kurilovo, Russia"), (42.9, 144.3, "Kitanoura, Japan"), (39.6, 141.9, "Misakubo, Japan"), (36.6, 140.6, "Takahagi-Minami, Japan"), (33.5, 135.6, "Kushimura, Japan"), (31.4, 131.3, "Shibushi-Hama, Japan"), (26.3, 127.7, "Nishihara-jima, Japan"), (24.0, 121.6, "Hualin, Taiwan")]),
 "izu_marianas": (5, True, .3, .15, (0, -.5), [(34.5, 139.5), (33, 140), (31, 140.3), (29, 140.8), (27, 142), (25, 142.5), (22.5, 143.5), (20, 145.5), (18, 146.5), (16, 146.5), (14, 145.5), (12.5, 144), (11.5, 142.5)],
   [(33.1, 139.8, "Hachijo-Minami, Japan"), (27.1, 142.2, "Chichi-Hama, Japan"), (15.2, 145.7, "Tanapag Point, Northern Mariana Islands"), (13.4, 144.7, "Agat Ridge, Guam")]),
 "philippines": (7, True, .25, 0, (0, 0), [(22.5, 121.5), (20, 121.2), (18, 119.7), (16, 119.4), (14.5, 120), (13, 121.5), (14, 124.8), (12, 126), (10, 126.6), (8, 127), (6, 127), (4, 127.5), (2, 126.8), (0, 125.5), (-1.5, 124)],
   [(16.0, 120.2, "Lingayen Sur, Philippines"), (12.0, 125.4, "San Isidro del Mar, Philippines"), (9.5, 126.1, "Baybay Norte, Philippines"), (6.9, 126.2, "Mati Proper, Philippines"), (1.4, 125.1, "Bitung Barat, Indonesia")]),
 "sunda": (12, True, .3, .1, (.55, .1), [(14, 93), (11, 92.5), (8, 93), (5.5, 94), (3, 95.5), (1, 97), (-1, 98.5), (-3, 100.3), (-4.5, 102), (-6, 104), (-7.5, 106.5), (-8.5, 109), (-9, 111.5), (-9.5, 114), (-9.8, 117), (-10, 119.5), (-9.5, 122), (-8.5, 124.5), (-7.5, 127), (-6.5, 129.5), (-5, 131), (-3.5, 130.5), (-3, 128.5)],
   [(11.6, 92.7, "Port Marlow, India"), (2.5, 96.3, "Sinabang Barat, Indonesia"), (-1.0, 100.4, "Padang Laut, Indonesia"), (-4.5, 102.9, "Manna Baru, Indonesia"), (-7.4, 106.5, "Pelabuhan Kidul, Indonesia"), (-8.3, 112.5, "Sendang Biru Timur, Indonesia"), (-9.6, 120.3, "Waingapu Timur, Indonesia"), (-8.0, 131.3, "Saumlaki Baru, Indonesia"), (-5.6, 132.7, "Tual Utara, Indonesia")]),
 "png_solomon": (7, True, .2, .03, (.45, 0), [(-2.5, 138), (-3.5, 141), (-4, 143.5), (-5, 145.5), (-5.8, 147.5), (-6.5, 149), (-6.8, 151), (-6.5, 152.5), (-5.8, 153.5), (-6, 155), (-7, 156), (-8, 157.5), (-9, 159), (-10, 161), (-11, 162.5)],
   [(-6.7, 147.0, "Lae Hills, Papua New Guinea"), (-6.2, 149.6, "Kandrian East, Papua New Guinea"), (-4.3, 152.3, "Kokopo Point, Papua New Guinea"), (-6.2, 155.5, "Arawa Bay, Papua New Guinea"), (-8.1, 156.8, "Gizo Harbour, Solomon Islands"), (-10.4, 161.9, "Kirakola, Solomon Islands")]),
 "vanuatu": (5, True, .25, 0, (0, .5), [(-11.5, 165.5), (-13, 166.5), (-15, 167), (-17, 167.8), (-19, 168.8), (-21, 169.8), (-22.5, 171)],
   [(-13.9, 167.5, "Sola Bay, Vanuatu"), (-16.1, 167.4, "Norsup Bay, Vanuatu"), (-19.5, 169.3, "Isangel Heights, Vanuatu"), (-21.6, 167.9, "Tadine Est, New Caledonia")]),
 "tonga_kermadec": (12, True, .25, .3, (0, -1.0), [(-15, -173.3), (-17, -173), (-19, -173.3), (-21, -173.8), (-23, -174.6), (-25, -175.5), (-27, -176.2), (-29, -176.9), (-31, -177.6), (-33, -178.6), (-34.5, -179.5), (-35.5, -180.4), (-36.5, -181.2), (-37.5, -182.2)],
   [(-18.6, -174.0, "Neiafu Hahake, Tonga"), (-19.8, -174.35, "Pangai Motu, Tonga"), (-21.4, -174.9, "`Afatoka, Tonga"), (-17.7, 178.8, "Levuka Bay, Fiji"), (-16.8, 179.35, "Savusavu East, Fiji")]),
 "new_zealand": (4, True, .2, 0, (0, -.4), [(-37.5, 177.8), (-38.5, 178.5), (-40, 177), (-41.5, 175.5), (-42.5, 173.5), (-43.5, 171), (-44.5, 168.5), (-46, 166.5), (-48, 165)],
   [(-37.6, 178.4, "Te Araroa Bay, New Zealand"), (-40.3, 176.7, "Porangahau Beach, New Zealand"), (-41.7, 174.1, "Seddon Flat, New Zealand"), (-42.5, 172.8, "Hanmer Downs, New Zealand"), (-44.7, 167.9, "Milford Landing, New Zealand"), (-46.3, 168.0, "Riverton West, New Zealand")]),
 "chile_peru": (12, True, .3, .08, (0, .9), [(1, -80), (-1, -80.8), (-3.5, -81), (-6, -81.2), (-8.5, -79.8), (-11, -78.2), (-13.5, -76.5), (-15.5, -75), (-17.5, -72), (-19, -70.6), (-21, -70.4), (-23.5, -70.6), (-26, -70.8), (-28.5, -71.4), (-31, -71.7), (-33.5, -72), (-36, -73), (-38.5, -73.8), (-41, -74.2), (-44, -75), (-46, -75.5)],
   [(1.0, -79.7, "Esmeraldas Norte, Ecuador"), (-1.0, -80.7, "Manta Alta, Ecuador"), (-5.1, -81.1, "Paita Nuevo, Peru"), (-9.1, -78.5, "Chimbote Sur, Peru"), (-13.7, -76.2, "Pisco Playa, Peru"), (-15.4, -74.6, "Acarí Bajo, Peru"), (-18.0, -70.3, "Tacna Alta, Peru"), (-20.3, -70.1, "Iquique Sur, Chile"), (-23.1, -70.45, "Mejillones Norte, Chile"), (-25.4, -70.5, "Taltal Viejo, Chile"), (-28.6, -70.8, "Vallenar Bajo, Chile"), (-30.6, -71.5, "Ovalle Costa, Chile"), (-33.6, -71.6, "San Antonio del Mar, Chile"), (-35.4, -72.4, "Constitución Sur, Chile"), (-37.6, -73.6, "Lebu Norte, Chile"), (-41.9, -73.8, "Ancud Oeste, Chile"), (-8.4, -74.5, "Pucallpa Este, Peru"), (-10.9, -69.6, "Iñapari Norte, Peru"), (-22.7, -65.7, "Abra Pampa Sur, Argentina"), (-27.8, -64.3, "Santiago del Estero Norte, Argentina"), (-31.3, -69.4, "Calingasta Alto, Argentina")]),
 "central_america": (5, True, .2, 0, (.5, .4), [(15.5, -94), (14.5, -92.5), (13.5, -91), (12.5, -89), (11.5, -87.5), (10.5, -86.3), (9.5, -85), (8.5, -83.5), (7.5, -82.5)],
   [(14.5, -92.2, "Puerto Ocós Nuevo, Guatemala"), (13.5, -89.8, "Acajutla Sur, El Salvador"), (12.5, -87.2, "Corinto Viejo, Nicaragua"), (10.1, -85.5, "Nicoya Bajo, Costa Rica"), (8.2, -82.9, "Puerto Armuelles Sur, Panama")]),
 "mexico": (6, True, .2, 0, (.6, .2), [(21, -106), (19.5, -105.5), (18.5, -104), (18, -102.5), (17.3, -101), (16.7, -99.5), (16, -98), (15.7, -96.5), (15.5, -95)],
   [(19.9, -105.3, "Tomatlán Costa, Mexico"), (18.8, -103.2, "Coalcomán Bajo, Mexico"), (17.5, -101.3, "Petatlán Sur, Mexico"), (16.7, -99.4, "San Marcos Costa, Mexico"), (16.4, -98.1, "Pinotepa Norte, Mexico"), (15.7, -96.5, "Puerto Ángel Viejo, Mexico"), (16.0, -93.8, "Tonalá Costa, Mexico")]),
 "mid_atlantic": (3, False, 0, 0, (0, 0), [(71, -8), (68.5, -15), (66, -18.5), (63.5, -21.5), (62, -25), (59, -30), (56, -34), (53, -35), (50, -29), (47, -27.5), (44, -28.5), (41, -29.5), (38, -31), (35, -35.5), (31, -41), (27, -44), (23, -45.5), (19, -46), (15, -45.5), (11, -43.5), (7.5, -37), (4, -32), (1, -27), (-1, -20), (-3, -13), (-7, -13), (-11, -14), (-15, -13.5), (-20, -12), (-25, -13.5), (-30, -13.5), (-35, -16), (-40, -16.5), (-45, -14)],
   [(64.0, -22.3, "Hveravík, Iceland"), (66.3, -16.6, "Kópasker Vestur, Iceland"), (38.5, -28.6, "Horta Velha, Portugal")]),
 "alpide": (10, False, .1, 0, (.5, 0), [(36, -5), (36.5, -2), (36.8, 1), (36.7, 4), (38, 13), (38, 15.5), (39.5, 16), (40.5, 15), (42.5, 13), (39.5, 20), (38, 21.5), (36.5, 22.5), (35, 24.5), (35.5, 27), (36.5, 28.5), (38, 27), (39.5, 28.5), (40.5, 31), (40.7, 34), (39.7, 38), (38.5, 40), (38, 43), (35.5, 46), (34, 47.5), (32, 49.5), (30, 51), (28.5, 53), (27.5, 55), (27, 57.5), (28.5, 61), (30, 66.5), (33.5, 69.5), (36, 70.8), (35, 74), (33.5, 76.5), (31, 79), (29.5, 81.5), (28.3, 84), (27.7, 86.5), (27.3, 89), (27.5, 92), (28, 94.5), (26, 96.5), (24, 94.5), (21, 94)],
   [(35.2, -3.9, "Al Hoceima Sud, Morocco"), (36.2, 1.4, "Chlef Est, Algeria"), (38.2, 15.5, "Messina Alta, Italy"), (42.8, 13.1, "Norcia Vecchia, Italy"), (38.2, 20.5, "Argostoli Bay, Greece"), (36.8, 21.7, "Methoni Beach, Greece"), (35.4, 26.9, "Kasos Port, Greece"), (38.3, 26.3, "Çeşme Koyu, Turkey"), (39.2, 28.2, "Sındırgı Yaylası, Turkey"), (40.8, 31.2, "Düzce Ovası, Turkey"), (38.2, 37.2, "Elbistan Ovası, Turkey"), (38.5, 43.3, "Gevaş Kıyısı, Turkey"), (34.3, 46.5, "Kermanshah Gharbi, Iran"), (30.8, 50.6, "Dehdasht Sofla, Iran"), (26.8, 55.0, "Bandar Kong Bala, Iran"), (28.7, 57.8, "Jiroft Olya, Iran"), (30.2, 67.0, "Quetta Khurd, Pakistan"), (36.6, 70.8, "Jurm Bala, Afghanistan"), (35.9, 74.3, "Gilgit Khurd, Pakistan"), (29.6, 80.2, "Pithoragarh Tal, India"), (28.0, 84.6, "Gorkha Bazaar, Nepal"), (27.7, 86.7, "Lukla Tar, Nepal"), (27.6, 91.9, "Tawang Basti, India"), (25.1, 94.4, "Ukhrul Khullen, India"), (23.2, 94.1, "Kalay Myo Ywa, Myanmar")]),
 "east_africa": (2, False, 0, 0, (0, 0), [(12.5, 42), (11, 41), (9, 39.5), (7, 38), (5, 36.5), (3, 36), (1, 36), (-1.5, 36), (-3.5, 35.5), (-6, 35), (-4, 31), (-1.5, 29.2), (-4, 29.3), (-7, 30.5), (-9, 33), (-11.5, 34.5), (-14, 35), (-16.5, 35)],
   [(11.8, 41.0, "Semera Gebeya, Ethiopia"), (9.0, 40.2, "Awash Sabat, Ethiopia"), (7.0, 38.5, "Hawassa Tula, Ethiopia"), (1.2, 36.1, "Kapedo Hills, Kenya"), (-1.9, 36.3, "Magadi Ndogo, Kenya"), (-3.8, 35.5, "Mbulu Juu, Tanzania"), (-2.5, 28.9, "Bukavu Haut, Democratic Republic of the Congo"), (-4.9, 29.7, "Kigoma Kaskazini, Tanzania"), (-9.9, 33.9, "Karonga Boma, Malawi"), (-11.7, 34.3, "Nkhata Bay South, Malawi")]),
 "caribbean": (4, False, .15, 0, (0, -.4), [(10.8, -61), (12.5, -61), (14, -60.5), (15.5, -60.5), (16.8, -61), (18, -62.5), (18.8, -64.5), (19.5, -66.5), (19.5, -69), (20, -72), (20, -74.5), (19.8, -77), (19, -80), (18, -83), (16.5, -86), (15.5, -88.5)],
   [(15.3, -61.4, "Roseau Heights, Dominica"), (14.9, -61.1, "Basse-Pointe Nord, Martinique"), (16.3, -61.8, "Deshaies Haut, Guadeloupe"), (17.6, -61.8, "Codrington Bay, Antigua and Barbuda"), (19.8, -70.6, "Puerto Plata Este, Dominican Republic"), (18.8, -72.9, "Anse-à-Galets Nord, Haiti"), (19.9, -77.3, "Pilón Costa, Cuba"), (19.4, -81.4, "West Bay Point, Cayman Islands"), (16.3, -86.5, "Roatán Norte, Honduras")]),
}


def region_name(key, lat, lon):
    """Flinn-Engdahl-style region names (no comma) for events far from any town."""
    if key == "tonga_kermadec":
        if lat > -26 and abs(lon) > 177.5:
            return "Fiji region"
        return "south of the Kermadec Islands" if lat < -31.5 else ("Kermadec Islands region" if lat < -25 else "Tonga region")
    if key == "mid_atlantic":
        return "Reykjanes Ridge" if lat > 52 else ("northern Mid-Atlantic Ridge" if lat > 5 else (
            "central Mid-Atlantic Ridge" if lat > -5 else "southern Mid-Atlantic Ridge"))
    return {"aleutians": "Aleutian Islands region", "kuril_japan": "Kuril Islands" if lat > 44 else "off the east coast of Honshu",
            "izu_marianas": "Mariana Islands region" if lat < 22 else "Bonin Islands region", "philippines": "Philippine Islands region",
            "sunda": "Banda Sea" if lon > 123 else "south of Java", "png_solomon": "Bismarck Sea" if lat > -5 else "Solomon Sea",
            "vanuatu": "Vanuatu region", "new_zealand": "off the east coast of New Zealand", "chile_peru": "off the coast of central Chile",
            "central_america": "off the coast of Central America", "mexico": "off the coast of Guerrero", "alpide": "eastern Mediterranean Sea",
            "east_africa": "Lake Tanganyika region", "caribbean": "Leeward Islands"}[key]


# ---------------------------------------------------------------------------
# Local / regional networks. Clusters: (lat, lon, sigma_km, weight, dmin, dmax)
# anchors: invented towns. weight = share of local rows; mmin/mmax for G-R;
# auto_h = rows younger than this many hours are still "automatic";
# utc = local UTC offset in November (for daytime quarry blasts).
# ---------------------------------------------------------------------------
NETS = {
 "ci": dict(weight=26, mmin=.3, mmax=3.5, auto_h=3, utc=-8, neg_floor=-.5, clusters=[(35.7, -117.55, 12, 5, 1, 12), (36.03, -117.8, 6, 2, .5, 6), (33.5, -116.55, 15, 3, 3, 18), (33.05, -115.6, 15, 3, 1, 12), (34.05, -116.4, 20, 2, 2, 14), (34.15, -118.2, 25, 2, 3, 18), (32.65, -115.9, 20, 1.5, 2, 15), (34.6, -119.5, 25, 1, 4, 16)],
   anchors=[(35.62, -117.66, "Mesquite Springs, CA"), (36.10, -117.93, "Haiwee Flats, CA"), (33.56, -116.72, "Palomar Heights, CA"), (33.10, -115.75, "Salton Shores, CA"), (34.18, -116.35, "Yucca Mesa, CA"), (34.12, -118.18, "Arroyo Seco Park, CA"), (32.70, -116.05, "Jacumba Springs, CA"), (34.40, -119.60, "Ventana Bay, CA")]),
 "nc": dict(weight=16, mmin=.4, mmax=3.4, auto_h=6, utc=-8, neg_floor=-.8, clusters=[(38.8, -122.8, 4, 5, .5, 4), (37.6, -118.85, 10, 2, 2, 10), (37.4, -121.7, 20, 2, 3, 12), (35.95, -120.45, 10, 2, 3, 13), (40.4, -124.6, 30, 1.5, 5, 25), (38.3, -119, 15, 1, 2, 12)],
   anchors=[(38.81, -122.74, "Cobb Ridge, CA"), (37.63, -118.90, "Mono Flats, CA"), (37.36, -121.75, "San Lucio, CA"), (35.86, -120.35, "Cholame Hills, CA"), (40.33, -124.25, "Petrolia Bluffs, CA"), (38.26, -119.20, "Bridgewater, CA")]),
 "ak": dict(weight=20, mmin=.6, mmax=4.0, auto_h=20, utc=-9, neg_floor=-.9, clusters=[(61.4, -150.2, 40, 3, 40, 150), (60.2, -152.5, 40, 2, 60, 200), (62.6, -150.5, 50, 2, 5, 110), (64.7, -147.3, 60, 2, 0, 25), (61, -146.8, 40, 1.5, 5, 35), (59.3, -153.3, 40, 1.5, 60, 160), (57.2, -155.5, 60, 1, 10, 80), (63, -144, 60, 1, 0, 20), (52, -176, 60, 1, 10, 120), (66.5, -157, 70, .5, 0, 20)],
   anchors=[(60.6, -151.2, "Kenai Point, Alaska"), (59.9, -152.9, "Chinitna Landing, Alaska"), (62.3, -150.1, "Susitna Bend, Alaska"), (64.8, -147.8, "Tanana Bluff, Alaska"), (61.1, -146.4, "Chugach Landing, Alaska"), (59.2, -153.8, "Kamishak Cove, Alaska"), (57.5, -156.0, "Kanatak Bay, Alaska"), (62.9, -143.9, "Nabesna Flats, Alaska"), (51.9, -176.5, "Adakh Bay, Alaska"), (66.3, -157.5, "Koyuk Crossing, Alaska")]),
 "hv": dict(weight=9, mmin=1.0, mmax=3.2, auto_h=10, utc=-10, neg_floor=-.6, clusters=[(19.4, -155.28, 4, 4, 0, 5), (19.2, -155.45, 8, 3, 25, 38), (19.35, -155.05, 8, 2, 1, 8), (19.7, -155.5, 20, 1, 5, 20), (20, -155.7, 15, .5, 10, 30)],
   anchors=[(19.43, -155.25, "Kalāhiki, Hawaii"), (19.18, -155.48, "Pūlehu, Hawaii"), (20.05, -155.55, "Honoka'ula, Hawaii"), (19.45, -154.95, "Kēōkea Mauka, Hawaii"), (19.75, -155.35, "Mauna Kea Forest, Hawaii")]),
 "nn": dict(weight=7, mmin=.5, mmax=3.0, auto_h=18, utc=-8, neg_floor=-.7, clusters=[(38.2, -117.85, 15, 3, 0, 12), (39.5, -119.8, 20, 2, 1, 14), (37.3, -115.5, 30, 1, 0, 10), (40.9, -115, 40, 1, 2, 15)],
   anchors=[(38.10, -117.70, "Silver Peak Junction, Nevada"), (39.50, -119.95, "Verdi Hills, Nevada"), (37.35, -115.20, "Alamo Springs, Nevada"), (40.95, -115.30, "Ruby Wells, Nevada")]),
 "pr": dict(weight=6, mmin=1.4, mmax=3.3, auto_h=3, utc=-4, neg_floor=0, clusters=[(17.95, -66.85, 8, 4, 5, 18), (18.15, -67.3, 15, 2, 8, 25), (19.15, -64.9, 25, 2, 10, 60), (18.7, -65.9, 25, 1, 30, 110)],
   anchors=[(18.00, -66.90, "Las Piñas Altas, Puerto Rico"), (18.20, -67.15, "Bahía Clara, Puerto Rico"), (18.35, -65.80, "Río Seco, Puerto Rico"), (18.35, -64.93, "Charlotte Bay, U.S. Virgin Islands"), (17.95, -67.20, "Cabo Peñón, Puerto Rico")]),
 "uu": dict(weight=4, mmin=.8, mmax=2.8, auto_h=2, utc=-7, neg_floor=-1.0, clusters=[(39.4, -110.3, 8, 2, 0, 4), (40.7, -112, 20, 2, 2, 12), (38.6, -112.7, 25, 1, 1, 10), (41.8, -111.6, 20, 1, 3, 12)],
   anchors=[(39.50, -110.40, "Coal Wash, Utah"), (40.65, -111.85, "Juniper Wash, Utah"), (38.55, -112.60, "Cedar Mesa, Utah"), (41.75, -111.75, "Bear Hollow, Utah")]),
 "uw": dict(weight=5, mmin=.3, mmax=2.5, auto_h=5, utc=-8, neg_floor=-1.2, clusters=[(46.2, -122.19, 4, 3, 1, 8), (47.6, -122.1, 30, 2, 5, 30), (48.4, -122.6, 30, 1, 10, 50), (46.8, -121.76, 6, 1, 0, 6)],
   anchors=[(46.30, -122.35, "Toutle Ridge, Washington"), (47.65, -121.90, "Tolt Ridge, Washington"), (48.40, -122.45, "Skagit Point, Washington"), (46.75, -121.90, "Paradise Flats, Washington")]),
 "ok": dict(weight=4, mmin=.9, mmax=2.8, auto_h=0, utc=-6, neg_floor=0, clusters=[(36.5, -98.7, 20, 2, 3, 9), (36.3, -97.5, 25, 2, 3, 9), (35.6, -97.2, 25, 1, 2, 8)],
   anchors=[(36.45, -98.85, "Red Prairie, Oklahoma"), (36.25, -97.30, "Cimarron Bend, Oklahoma"), (35.55, -97.05, "Dover Springs, Oklahoma")]),
 "tx": dict(weight=3, mmin=1.2, mmax=3.2, auto_h=0, utc=-6, neg_floor=0, clusters=[(31.65, -104.35, 20, 3, 2, 10), (32.35, -102.1, 25, 2, 3, 9), (28.8, -98, 30, 1, 2, 8)],
   anchors=[(31.45, -104.05, "Pecos Flats, Texas"), (31.75, -103.60, "Mentone Draw, Texas"), (32.30, -102.35, "Andrews Mesa, Texas"), (28.85, -97.85, "Karnes Crossing, Texas")]),
}
LOCAL_FRACTION = 0.76


# ------------------------------- geometry ----------------------------------
def norm_lon(lon):
    lon = (lon + 180.0) % 360.0 - 180.0
    return 180.0 if lon == -180.0 else lon


def dist_bearing(lat1, lon1, lat2, lon2):
    """Great-circle km and initial bearing (deg) from point 1 to point 2."""
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    d = 2 * 6371.0 * math.asin(min(1.0, math.sqrt(a)))
    y = math.sin(dl) * math.cos(p2)
    x = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    return d, math.degrees(math.atan2(y, x)) % 360


def jitter(rng, lat, lon, sigma_km):
    lat2 = lat + rng.gauss(0, sigma_km) / 111.2
    lon2 = lon + rng.gauss(0, sigma_km) / (111.2 * max(0.2, math.cos(math.radians(lat))))
    return max(-89.9, min(89.9, lat2)), lon2


def place_from(anchor, lat, lon):
    alat, alon, name = anchor
    d, b = dist_bearing(alat, alon, lat, lon)
    return f"{max(1, round(d))} km {COMPASS[int((b + 11.25) // 22.5) % 16]} of {name}", d


def nearest_place(anchors, lat, lon):
    return min((place_from(a, lat, lon) for a in anchors), key=lambda p: p[1])


def sample_line(rng, verts):
    """Uniform point along a polyline (lengths in km)."""
    segs = [dist_bearing(*verts[i], *verts[i + 1])[0] for i in range(len(verts) - 1)]
    r = rng.random() * sum(segs)
    for i, s in enumerate(segs):
        if r <= s or i == len(segs) - 1:
            t = min(1.0, r / s) if s else 0.0
            (a, b), (c, d) = verts[i], verts[i + 1]
            return a + t * (c - a), b + t * (d - b)
        r -= s


# ------------------------------ magnitudes ---------------------------------
def gr_mag(rng, mmin, mmax, b=1.0):
    """Truncated Gutenberg-Richter magnitude."""
    u = rng.random()
    return mmin - math.log10(1 - u * (1 - 10 ** (-b * (mmax - mmin)))) / b


def rand_ms(rng, lo=START_MS, hi=END_MS):
    return rng.randrange(lo, hi)


# ------------------------------- events ------------------------------------
def local_event(rng, net):
    cfg = NETS[net]
    c = rng.choices(cfg["clusters"], weights=[c[3] for c in cfg["clusters"]])[0]
    lat, lon = jitter(rng, c[0], c[1], c[2])
    return dict(net=net, t=rand_ms(rng), lat=lat, lon=lon, depth=rng.uniform(c[4], c[5]),
                mag=gr_mag(rng, cfg["mmin"], cfg["mmax"]), type="earthquake", fixed=False,
                place=nearest_place(cfg["anchors"], lat, lon)[0])


def global_event(rng, key, t=None, mag=None, depth=None, near=None, sigma=25.0):
    _w, _rof, p_int, p_deep, (slat, slon), verts, anchors = PLATES[key]
    lat, lon = near if near else sample_line(rng, verts)
    fixed = False
    if depth is None:
        r = rng.random()
        if r < p_deep:
            depth = rng.uniform(300, 650)
        elif r < p_deep + p_int:
            depth = rng.uniform(70, 300)
        elif rng.random() < 0.45:
            depth, fixed = 10.0, True
        else:
            depth = rng.uniform(2, 35)
    if depth >= 70:  # slab events sit landward of the trench
        lat, lon = lat + slat * depth / 100, lon + slon * depth / 100
    lat, lon = jitter(rng, lat, lon, sigma)
    lon = norm_lon(lon)
    if mag is None:
        mag = gr_mag(rng, 4.0, 5.9) if rng.random() < 0.85 else rng.uniform(2.6, 3.99)
    place, d = nearest_place(anchors, lat, lon)
    if d > 250:
        place = region_name(key, lat, lon)
    return dict(net="us", t=t if t is not None else rand_ms(rng), lat=lat, lon=lon, depth=depth,
                mag=mag, type="earthquake", fixed=fixed, place=place)


def make_events(rng, n_rows):
    n_local = round(n_rows * LOCAL_FRACTION)
    n_global = n_rows - n_local
    # integer split of local rows by weight (largest remainder, stable order)
    tot = sum(c["weight"] for c in NETS.values())
    raw = {k: n_local * c["weight"] / tot for k, c in NETS.items()}
    counts = {k: int(v) for k, v in raw.items()}
    for k in sorted(raw, key=lambda k: -(raw[k] - counts[k]))[: n_local - sum(counts.values())]:
        counts[k] += 1
    events = [local_event(rng, net) for net, n in counts.items() for _ in range(n)]

    # special global events: one M6 on the Ring of Fire plus aftershocks,
    # Tonga/Kurils places with a backtick / apostrophe, antimeridian events
    ring = [k for k, p in PLATES.items() if p[1]]
    key = rng.choice(ring)
    t0 = rand_ms(rng, START_MS + 2 * HOUR, END_MS - 6 * HOUR)
    main = global_event(rng, key, t=t0, mag=rng.uniform(6.0, 6.94), depth=rng.uniform(12, 45))
    specials = [main]
    for _ in range(4):
        specials.append(global_event(rng, key, t=t0 + rng.randrange(HOUR // 10, 5 * HOUR),
                                     mag=rng.uniform(4.2, 5.2), depth=rng.uniform(8, 40),
                                     near=(main["lat"], main["lon"]), sigma=20))
    tonga = global_event(rng, "tonga_kermadec", near=(-21.9, -175.6), depth=rng.uniform(10, 60), sigma=15)
    tonga["place"] = place_from(PLATES["tonga_kermadec"][6][2], tonga["lat"], tonga["lon"])[0]
    kuril = global_event(rng, "kuril_japan", near=(50.0, 157.4), depth=rng.uniform(20, 70), sigma=15)
    kuril["place"] = place_from(PLATES["kuril_japan"][6][1], kuril["lat"], kuril["lon"])[0]
    specials += [tonga, kuril]
    for lat, lon, name in ((-20.6, 179.93, "Fiji region"), (-18.2, -179.92, "Fiji region"),
                           (-33.4, -179.91, "south of the Kermadec Islands"), (-34.1, 179.94, "south of the Kermadec Islands")):
        e = global_event(rng, "tonga_kermadec", near=(lat, lon), depth=rng.uniform(420, 620) if lat > -25 else rng.uniform(10, 60), sigma=0.01)
        e["lat"], e["lon"], e["place"] = lat + rng.uniform(-.3, .3), lon + rng.uniform(-.05, .05), name
        specials.append(e)
    keys = list(PLATES)
    for _ in range(n_global - len(specials)):
        k = rng.choices(keys, weights=[PLATES[k][0] for k in keys])[0]
        e = global_event(rng, k)
        e["mag"] = min(e["mag"], 5.9)
        specials.append(e)
    return events + specials[:n_global]


def local_hour(e):
    return ((e["t"] // HOUR) + NETS[e["net"]]["utc"]) % 24


def add_quirks(rng, events, n_rows):
    """Deliberately plant the oddities real feeds contain; returns nothing."""
    idx = lambda pred: [i for i, e in enumerate(events) if pred(e)]
    quake = lambda e: e["type"] == "earthquake" and e["mag"] is not None
    for i in rng.sample(idx(lambda e: e["net"] in ("ci", "uu", "uw", "ok", "nn", "nc") and 8 <= local_hour(e) < 17),
                        max(1, round(n_rows / 70))):
        events[i].update(type="quarry blast", depth=rng.uniform(0, 1.2), mag=rng.uniform(0.9, 2.2))
    for i in rng.sample(idx(lambda e: e["net"] in ("nc", "uw", "ci", "nn") and quake(e)), max(1, round(n_rows / 140))):
        events[i].update(type="explosion", depth=rng.uniform(0, 0.8), mag=rng.uniform(0.8, 1.9))
    for i in rng.sample(idx(lambda e: e["net"] == "ak" and quake(e)), max(1, round(n_rows / 105))):
        events[i].update(type="ice quake", depth=rng.uniform(0, 1.5), mag=rng.uniform(0.4, 1.8))
    for i in rng.sample(idx(lambda e: e["net"] in ("nc", "ci") and quake(e)), min(3, n_rows // 50 + 1)):
        events[i]["mag"] = None  # empty mag and magType
    small = lambda e: quake(e) and NETS.get(e["net"], {}).get("neg_floor", 0) < 0 and e["mag"] < 1.0
    deepest = rng.choice(idx(lambda e: small(e) and e["net"] == "uw"))  # one near the -1.2 floor
    neg = [deepest] + rng.sample([i for i in idx(small) if i != deepest], max(1, round(n_rows * 0.04)) - 1)
    for j, i in enumerate(neg):
        floor = NETS[events[i]["net"]]["neg_floor"]
        events[i]["mag"] = rng.uniform(floor, floor + 0.1) if j == 0 else rng.uniform(floor, -0.06)
    n_neg = max(4, round(n_rows * 0.02))
    hv_pool = idx(lambda e: e["net"] == "hv" and quake(e) and e["depth"] < 5)
    hv = rng.sample(hv_pool, min(3, len(hv_pool)))
    other = rng.sample(idx(lambda e: e["net"] in ("uu", "nc", "ci", "nn", "uw") and quake(e) and e["depth"] < 6),
                       n_neg - len(hv))
    for j, i in enumerate(hv + other):
        events[i]["depth"] = -rng.uniform(3.2, 3.5) if j == 0 else -rng.uniform(0.1, 3.0)


# ------------------------------ formatting ---------------------------------
def fx(x, nd):
    """Fixed decimals with trailing zeros stripped, like USGS numbers."""
    s = f"{x:.{nd}f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def sig(x, n):
    """n significant digits, never exponent notation."""
    if x == 0:
        return "0"
    return fx(x, max(0, n - 1 - math.floor(math.log10(abs(x)))))


def f32(x, n):
    """Value as a float32 printed with n significant digits (hv style noise)."""
    return sig(struct.unpack("<f", struct.pack("<f", x))[0], n)


def dm(x, step=0.01):
    """Degrees as picked in whole minutes + hundredths (gives 33.9766667-style noise)."""
    a = abs(x)
    d = math.floor(a)
    return math.copysign(d + round((a - d) * 60 / step) * step / 60, x)


def iso(ms):
    return (EPOCH + timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S") + f".{ms % 1000:03d}Z"


def b36(n, width):
    s = ""
    for _ in range(width):
        n, r = divmod(n, 36)
        s = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + s
    return s


def b26(n, width):
    s = ""
    for _ in range(width):
        n, r = divmod(n, 26)
        s = chr(97 + r) + s
    return s


def make_ids(rng, events):
    """Ids in each network's style, increasing with time within a network."""
    ctr = {"ci": 40512000, "nc": 75400100, "nn": 801200, "hv": 74012000, "uu": 60512000, "uw": 62012000,
           "us": int("p2a0", 36), "ok": 22 * 26 ** 3, "tx": 1200}
    pr_day = {}
    seen = set()
    for e in sorted(events, key=lambda e: e["t"]):
        n = e["net"]
        if n == "ak":
            while True:
                i = "ak0226" + b36(rng.randrange(36 ** 6), 6)
                if i not in seen:
                    break
        elif n == "pr":
            doy = (EPOCH + timedelta(milliseconds=e["t"])).timetuple().tm_yday
            pr_day[doy] = pr_day.get(doy, -1) + rng.randint(1, 3)
            i = f"pr2026{doy:03d}{pr_day[doy]:03d}"
        else:
            ctr[n] += rng.randint(1, 6) if n in ("us", "ok", "tx") else rng.randint(2, 25)
            i = {"ci": f"ci{ctr[n]}", "nc": f"nc{ctr[n]}", "nn": f"nn00{ctr[n]}", "hv": f"hv{ctr[n]}",
                 "uu": f"uu{ctr[n]}", "uw": f"uw{ctr[n]}", "us": "us6000" + b36(ctr[n], 4),
                 "ok": "ok2026" + b26(ctr[n], 4), "tx": "tx2026" + b26(ctr[n], 4)}[n]
        assert i not in seen, i
        seen.add(i)
        e["id"] = i


def fmt_row(rng, e):
    n, lat, lon, dep, mag = e["net"], e["lat"], e["lon"], e["depth"], e["mag"]
    mag = 0.0 if mag is None else mag  # placeholder; blanked below
    R = rng.uniform
    age_h = (END_MS - e["t"]) / HOUR
    auto = n != "us" and age_h < NETS[n]["auto_h"]
    lag = R(90_000, 25 * 60_000) if auto else R(20 * 60_000, (12 if n == "us" else 9) * HOUR)
    upd = e["t"] + int(lag)
    if upd > END_MS:
        upd = e["t"] + int((END_MS - e["t"]) * R(0.3, 0.95))
    nst, gap, dmin, herr, magerr, magnst = (str(rng.randint(5, 60)), str(rng.randint(30, 300)), R(0.003, 0.4),
                                            R(0.15, 2.5), R(0.05, 0.4), str(rng.randint(3, 40)))
    if n == "us":
        mt = "mww" if mag >= 5.0 and rng.random() < 0.8 else ("mb" if mag >= 4.0 else "ml")
        f = [fx(lat, 4), fx(lon, 4), "10" if e["fixed"] else fx(dep, 2), fx(mag, 1), mt, "", str(rng.randint(15, 200)),
             fx(R(0.3, 12), 3), fx(R(0.3, 1.3), 2), fx(R(3, 12), 1), "1.9" if e["fixed"] else fx(R(1.5, 12), 1),
             fx(R(0.03, 0.15) if mt != "ml" else R(0.1, 0.3), 3), str(rng.randint(5, 200))]
    elif n == "ak":
        f = [fx(lat, 4), fx(lon, 4), fx(dep, 1), fx(mag, 1), "ml", "", "", "", fx(R(0.2, 1.1), 2), "", fx(R(0.2, 5), 1), "", ""]
    elif n == "nn":
        f = [fx(lat, 4), fx(lon, 4), fx(dep, 1), fx(mag, 1), "ml", nst, fx(R(40, 320), 2), fx(R(0.01, 0.8), 3),
             fx(R(0.05, 0.4), 4), "", fx(R(0.3, 40), 1), fx(R(0.1, 1.1), 2), magnst]
    elif n == "hv":
        f = [f32(dm(lat), 15), f32(dm(lon), 15), f32(round(dep, 2), 15), fx(mag, 2), rng.choice(["ml", "md"]), nst, gap, "",
             f32(round(R(0.05, 0.3), 2), 9), fx(herr, 2), f32(round(R(0.2, 1.5), 2), 9), fx(magerr, 2), magnst]
    elif n == "pr":
        f = [sig(dm(lat), 15), sig(dm(lon), 15), fx(dep, 2), fx(mag, 2), "md", nst, gap, "", fx(R(0.05, 0.4), 2),
             fx(herr, 2), fx(R(0.3, 3), 2), sig(magerr, 15), magnst]
    elif n == "tx":
        f = [sig(lat, 10), sig(lon, 10), sig(dep, 10), fx(mag, 1), "ml", nst, gap, sig(dmin, 10), fx(R(0.05, 0.3), 2),
             sig(herr, 16), sig(R(0.5, 3), 10), fx(R(0.1, 0.3), 1), magnst]
    elif n == "ok":
        f = [fx(dm(lat), 8), fx(dm(lon), 8), fx(dep, 2), fx(mag, 2), "ml", nst, gap, sig(dmin, 10), fx(R(0.1, 0.4), 2),
             "", fx(R(0.2, 1), 1), fx(magerr, 2), magnst]
    else:  # ci, nc, uu, uw: hypoinverse style
        coord = (lambda v: sig(v, 16)) if n == "uw" else (lambda v: fx(v, 7))
        plat, plon = (dm(lat), dm(lon)) if rng.random() < 0.8 else (lat, lon)
        mt = {"ci": "ml", "nc": "md", "uu": "md", "uw": "ml"}[n]
        me = sig(magerr, 16) if n == "uw" else ("" if rng.random() < 0.15 else fx(magerr, 3))
        f = [coord(plat), coord(plon), fx(dep, 2), fx(mag, 2), mt, nst, gap, sig(dmin, 4), fx(R(0.02, 0.35), 2),
             fx(herr, 2), fx(R(0.2, 3), 2), me, magnst]
    if e["mag"] is None:
        f[3] = f[4] = f[11] = f[12] = ""
    lat_s, lon_s, dep_s, mag_s, mt, nst, gap, dmin, rms, herr, derr, merr, mnst = f
    return [iso(e["t"]), lat_s, lon_s, dep_s, mag_s, mt, nst, gap, dmin, rms, n, e["id"], iso(upd), e["place"],
            e["type"], herr, derr, merr, mnst, "automatic" if auto else "reviewed", n, n]


# ------------------------------- checking ----------------------------------
def summarize(path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    head, body = rows[0], rows[1:]
    assert head == HEADER and all(len(r) == 22 for r in body), "bad field count"
    col = {h: i for i, h in enumerate(head)}
    g = lambda r, k: r[col[k]]
    mags = [float(g(r, "mag")) for r in body if g(r, "mag")]
    types = {}
    for r in body:
        types[g(r, "type")] = types.get(g(r, "type"), 0) + 1
    for r in body:
        for k in ("latitude", "longitude", "depth", "mag", "gap", "dmin", "rms", "horizontalError", "depthError", "magError"):
            v = g(r, k)
            assert v == "" or ("e" not in v.lower() and "n" not in v.lower()), (k, v)
    return {
        "rows": len(body), "first time": g(body[-1], "time"), "last time": g(body[0], "time"),
        "mag min": min(mags), "mag max": max(mags), "M>=5": sum(m >= 5 for m in mags), "M>=6": sum(m >= 6 for m in mags),
        "empty mag+magType": sum(1 for r in body if not g(r, "mag") and not g(r, "magType")),
        "negative mag": sum(m < 0 for m in mags), "negative depth": sum(float(g(r, "depth")) < 0 for r in body),
        "min depth": min(float(g(r, "depth")) for r in body), "max depth": max(float(g(r, "depth")) for r in body),
        "types": types, "place quoted (has comma)": sum("," in g(r, "place") for r in body),
        "place without comma": sum("," not in g(r, "place") for r in body),
        "place non-ASCII": sum(not g(r, "place").isascii() for r in body),
        "place with apostrophe": sum("'" in g(r, "place") for r in body),
        "place with backtick": sum("`" in g(r, "place") for r in body),
        "lon > 179.5": sum(float(g(r, "longitude")) > 179.5 for r in body),
        "lon < -179.5": sum(float(g(r, "longitude")) < -179.5 for r in body),
        "coords with >5 decimals": sum(len(g(r, "latitude").partition(".")[2]) > 5 for r in body),
        "status": {s: sum(g(r, "status") == s for r in body) for s in ("automatic", "reviewed")},
        "nets": {n: sum(g(r, "net") == n for r in body) for n in sorted({g(r, "net") for r in body})},
        "empty nst": sum(not g(r, "nst") for r in body), "empty gap": sum(not g(r, "gap") for r in body),
        "empty dmin": sum(not g(r, "dmin") for r in body), "empty magError": sum(not g(r, "magError") for r in body),
        "empty magNst": sum(not g(r, "magNst") for r in body),
        "unique ids": len({g(r, "id") for r in body}) == len(body),
    }


def main(argv=None):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description="Generate a SYNTHETIC USGS all_day.csv-style feed.")
    ap.add_argument("--out", default=os.path.join(root, "Data", "synthetic_all_day.csv"))
    ap.add_argument("--rows", type=int, default=420)
    ap.add_argument("--seed", type=int, default=20261121)
    args = ap.parse_args(argv)
    if args.rows < 100:
        ap.error("--rows must be at least 100")
    rng = random.Random(args.seed)
    events = make_events(rng, args.rows)
    add_quirks(rng, events, args.rows)
    make_ids(rng, events)
    events.sort(key=lambda e: (-e["t"], e["id"]))  # most recent first, like USGS
    rows = [fmt_row(rng, e) for e in events]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        w.writerow(HEADER)
        w.writerows(rows)
    for k, v in summarize(args.out).items():
        print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
