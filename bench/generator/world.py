"""Names, places and things the generator draws from (plain data)."""

from __future__ import annotations

FIRST_NAMES = (
    "Aaliyah Abebe Adaeze Aiko Alejandro Amara Anders Anika Arjun Astrid Bea Benedikt Bilal Camila Chen "
    "Chiara Dara Dmitri Eitan Elena Emeka Esme Farah Felix Femi Freya Gabriel Greta Hamid Hana Hugo Ines "
    "Isak Jamal Jia Joaquin Jonas Kai Kalani Keiko Kemal Lars Leila Lucia Luis Maeve Malik Mara Marek "
    "Mateo Maya Mei Milan Mira Nadia Naveen Niamh Nikhil Noor Olu Omar Oskar Paloma Priya Quentin Rafael "
    "Rania Ravi Rhea Rosa Ruth Sade Samir Sanne Sara Sefa Selin Sven Tariq Tess Theo Tomas Uma Valentina "
    "Vikram Wen Xavier Yara Yusuf Zara Zofia"
).split()
SURNAMES = (
    "Abara Adeyemi Alvarez Andersen Bauer Becker Bianchi Brennan Castillo Chowdhury Costa Dahl Demir "
    "Dubois Eriksen Farouk Fischer Gallo Garcia Haddad Hansen Ibrahim Ito Jansen Kaur Khan Kim Kowalski "
    "Larsen Lindqvist Lopez Mahmoud Markovic Mensah Moreau Murphy Nakamura Novak Okafor Oliveira Park "
    "Patel Petrov Quinn Rahman Rossi Santos Sato Schmidt Silva Singh Sokolov Tan Torres Van Dijk Vargas "
    "Wagner Walsh Yilmaz Zhang"
).split()
# (city, airport code, main station, UTC offset hours)
CITIES = (
    ("Boston", "BOS", "South Station", -5),
    ("Chicago", "ORD", "Union Station", -6),
    ("Denver", "DEN", "Union Station Denver", -7),
    ("Seattle", "SEA", "King Street Station", -8),
    ("Toronto", "YYZ", "Union Station Toronto", -5),
    ("London", "LHR", "London Euston", 0),
    ("Manchester", "MAN", "Manchester Piccadilly", 0),
    ("Edinburgh", "EDI", "Edinburgh Waverley", 0),
    ("Dublin", "DUB", "Dublin Heuston", 0),
    ("Lisbon", "LIS", "Lisboa Oriente", 0),
    ("Madrid", "MAD", "Madrid Atocha", 1),
    ("Barcelona", "BCN", "Barcelona Sants", 1),
    ("Paris", "CDG", "Gare de Lyon", 1),
    ("Lyon", "LYS", "Lyon Part-Dieu", 1),
    ("Amsterdam", "AMS", "Amsterdam Centraal", 1),
    ("Berlin", "BER", "Berlin Hauptbahnhof", 1),
    ("Munich", "MUC", "München Hauptbahnhof", 1),
    ("Vienna", "VIE", "Wien Hauptbahnhof", 1),
    ("Zurich", "ZRH", "Zürich HB", 1),
    ("Milan", "MXP", "Milano Centrale", 1),
    ("Copenhagen", "CPH", "København H", 1),
    ("Stockholm", "ARN", "Stockholm Central", 1),
    ("Warsaw", "WAW", "Warszawa Centralna", 1),
    ("Athens", "ATH", "Athens Central", 2),
    ("Istanbul", "IST", "Istanbul Sirkeci", 3),
    ("Dubai", "DXB", "Dubai Metro Union", 4),
    ("Mumbai", "BOM", "Mumbai CSMT", 5),
    ("Singapore", "SIN", "Woodlands Train Checkpoint", 8),
    ("Tokyo", "HND", "Tokyo Station", 9),
    ("Sydney", "SYD", "Sydney Central", 10),
)
CITY = {c[0]: c for c in CITIES}
REGION = {
    "Boston": "na",
    "Chicago": "na",
    "Denver": "na",
    "Seattle": "na",
    "Toronto": "na",
    "Dubai": "asia",
    "Mumbai": "asia",
    "Singapore": "asia",
    "Tokyo": "asia",
    "Sydney": "oc",
}  # every other city is in Europe
DESTINATIONS = {
    "na": (
        "Austin",
        "Montreal",
        "Portland",
        "Philadelphia",
        "Nashville",
        "Vancouver",
        "New York",
        "San Diego",
        "Denver",
        "Boston",
    ),
    "eu": (
        "Rome",
        "Porto",
        "Prague",
        "Oslo",
        "Nice",
        "Seville",
        "Bristol",
        "Glasgow",
        "Hamburg",
        "Cologne",
        "Brussels",
        "Geneva",
        "Bologna",
        "Krakow",
        "Valencia",
        "Bordeaux",
    ),
    "asia": ("Kyoto", "Osaka", "Seoul", "Bangkok", "Kuala Lumpur", "Delhi", "Hong Kong", "Hanoi"),
    "oc": ("Melbourne", "Brisbane", "Canberra", "Adelaide", "Perth"),
}
RESTAURANTS = {
    "thai": ("Thai Basil", "Siam Garden", "Lemongrass House"),
    "italian": ("Trattoria Nonna", "Pasta Fresca", "Il Forno"),
    "japanese": ("Sakura Ramen", "Koi Sushi", "Izakaya Ren"),
    "mexican": ("Casa Verde", "Taqueria Sol", "El Molino"),
    "indian": ("Spice Route", "Tandoor Nights", "Masala House"),
    "lebanese": ("Cedar Grill", "Beirut Kitchen", "Zaatar"),
    "korean": ("Seoul Pot", "Bibim Bar", "Gangnam Grill"),
    "ethiopian": ("Blue Nile", "Addis Table", "Lalibela"),
}
DISHES = {
    "thai": ("green curry", "pad see ew", "massaman curry", "tom yum soup"),
    "italian": ("mushroom risotto", "margherita pizza", "penne arrabbiata", "gnocchi"),
    "japanese": ("tonkotsu ramen", "salmon bento", "veggie gyoza", "katsu curry"),
    "mexican": ("burrito bowl", "bean tacos", "enchiladas", "quesadilla"),
    "indian": ("chana masala", "dal makhani", "saag paneer", "biryani"),
    "lebanese": ("falafel wrap", "mezze platter", "shawarma plate", "fattoush"),
    "korean": ("bibimbap", "tofu stew", "japchae", "kimchi fried rice"),
    "ethiopian": ("misir wot", "shiro", "injera platter", "tibs"),
}
CAFES = ("Bean There", "Daily Grind", "Kettle & Co", "Roast Republic", "The Milk Bar", "Corner Brew")
PHARMACIES = ("Boots on High Street", "CityCare Pharmacy", "Greenleaf Chemist", "Walgreens on 5th")
MEDICATIONS = (
    "levothyroxine",
    "lisinopril",
    "metformin",
    "sertraline",
    "atorvastatin",
    "cetirizine",
    "salbutamol inhaler",
)
COLLEAGUES = ("Priya", "Marco", "Dana", "Kofi", "Ingrid", "Tomás", "Leah", "Hiro", "Sofia", "Ben")
FRIENDS = ("Ana", "Jules", "Mo", "Kat", "Sam", "Ola", "Nina", "Rory", "Ade", "Liv")
FILMS = ("Dune: Part Three", "The Long Quiet", "Paper Moons", "Glass Harbour", "Night Shift", "Orbit Lines")
SHOWS = ("Hamilton", "The Mousetrap", "a jazz quartet", "a stand-up night", "the symphony", "an indie band")
GUESTS = (
    "my dad",
    "my niece",
    "a colleague",
    "my mother-in-law",
    "a friend from work",
    "my neighbour",
    "my brother",
)
RELATIONS = ("My sister", "My flatmate", "My boss", "My partner's mum", "A friend of mine", "My cousin")
