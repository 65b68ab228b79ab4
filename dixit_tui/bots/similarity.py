"""How well a card's text fits a clue: words, stems and a small hand-written table of related concepts.

    fit("low tide", "A door stands alone on a beach, and the tide comes in on only one side of it.")  # high
    fit("ocean", "A boy whispers into a seashell ...")                                              # related
    fit("ocean", "A mountain wears a woollen hat ...")                                              # 0.0

The text is normalised (Unicode casefold, punctuation dropped), split into words, stopwords are dropped and the
rest stemmed with the Snowball English stemmer, so "stars", "starry" and "star" meet. Each clue word then scores
against the card: the same stem 1.0, a related concept of the association table 0.6 (a little more when it relates
to several words of the card), a shared word start (a loose stem variant) 0.3. `fit` is the mean over the clue's
content words, in [0, 1]. Everything is cached and deterministic (no set of strings is ever iterated for a result).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import snowballstemmer

EXACT = 1.0
RELATED = 0.6
RELATED_MAX = 0.9  # a clue word related to several words of the card
PREFIX = 0.3
PREFIX_MIN = 5  # letters two stems must share to count as variants of one word

_STOPWORDS_TEXT = """
    a about above after again against all almost also am an and any are around as at away back be because been
    before being below between both but by can could did do does doing done down during each either else even
    ever every few for from further get gets got had has have having he her here hers herself him himself his how
    i if in inside into is it its itself just last least less like made make many may me might more most much
    must my myself near never next no nor not now of off on once one only onto or other our ours ourselves out
    outside over own per quite rather same she should since so some still such than that the their theirs them
    themselves then there these they this those though through to too toward towards under until up upon us very
    was we were what when where whether which while who whom whose why will with within without would yet you
    your yours yourself yourselves
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())

# Related concepts, one group a line: a clue word fits a card that mentions another word of its group. The first
# word of a group is its theme (a hypernym when there is one). Written for dreamlike scenes; kept small on purpose.
ASSOCIATIONS: tuple[tuple[str, ...], ...] = tuple(
    tuple(line.split())
    for line in """
    sea ocean wave tide shore beach seabed coast salt seashell shell harbour pier surf bay
    sea lighthouse foam island drown
    night moon star dark dusk midnight evening nocturnal starlight twilight
    time clock hour late early hourglass minute watch calendar tick deadline clockmaker
    home house door window roof cottage doorstep kitchen chimney hallway room hearth family nest hut wardrobe teapot
    sleep dream bed pillow pyjamas nightstand bedtime asleep nap slumber lullaby sleepwalk doze hammock tuck
    sky cloud air balloon kite float drift soar heaven high rainbow aurora
    bird owl crow heron feather nest egg flock migrate wing beak swallow
    bird sparrow starling geese goose crane rooster roost birdcage
    water river rain lake pond flood puddle well waterfall wet drop stream riverbed canal fountain spray
    cold snow ice frozen winter iceberg polar freeze frost snowflake chill snowman glacier igloo
    sun summer heat bright dawn sunset sunrise sunflower warm daylight tropical sunny
    light lamp lantern candle glow bulb flashlight shine lit lamplight beam lighthouse chandelier lighter
    fire flame smoke burn volcano ember ash spark oven blacksmith forge
    music piano song violin accordion melody tune concert orchestra sing note instrument
    music gramophone cello cellist flute trumpet radio
    sound echo bell listen ear noise whisper voice ring hear radio speaker
    silence quiet hush whisper secret calm peace mute stillness
    journey travel road path crossroads train suitcase bus wander voyage map trip destination
    journey tram railway platform passenger signpost traveller compass route
    lost wander maze stray missing astray
    book library read story page novel chapter bedtime tale fairytale poem word written ink typewriter
    letter mail postman mailbox envelope post message send parcel newspaper postcard reply
    child boy girl kid childhood toy young baby innocence children kitten
    old grandmother grandfather age aged memory past ancient elderly nostalgia dinosaur skeleton
    love couple heart together romance kiss darling sweetheart bride wedding aisle
    dance dancer ballroom waltz ballet party step
    alone lone lonely empty solitude single hermit nobody abandoned isolation
    animal creature beast fox wolf bear cat dog deer hare rabbit elephant crocodile badger squirrel sheep lamb camel
    animal otter raccoon giraffe tiger leopard lion bison goat hedgehog mice mouse cow zebra
    fish whale crab coral submarine swim fin aquarium octopus goldfish diver diving
    forest tree wood woods leaf leaves branch root acorn mushroom trunk oak orchard hedge treetop jungle
    garden flower plant grow seed flowerpot bloom meadow field vegetable water gardener cactus violet apple petal
    mirror reflection reflect glass image double puddle twin
    shadow silhouette shade dark darkness
    ghost spirit haunt phantom invisible spectre
    mask face carnival disguise costume hide identity
    king queen crown throne royal castle palace kingdom corridor tapestry chandelier
    circus clown tent show applause stage performance audience acrobat juggler
    game play chess card cards puzzle player win dominoes
    key lock door locked keyhole open unlock
    space astronaut comet planet rocket universe cosmos galaxy orbit telescope
    storm thunder lightning wind tempest weather hurricane gale
    city town village street market square traffic motorway bridge urban
    city cafe canal laundrette rooftop underground hotel station
    work clerk office desk paper stamp job builder tailor labour bureaucracy
    work baker blacksmith gardener guard cleaner waiter photographer
    repair mend patch tape broken crack fix glue
    food bread cake pear breakfast jar eat hungry sugar sweet feast
    food loaf loaves baker soup cook tea teacup pancake milk dinner supper apple
    birthday party celebration cake candle confetti festival balloon present
    race run runner finish stadium victory champion sport
    mountain hill peak cliff summit slope volcano
    climb staircase stairs ladder rise tower step ascend scaffolding height escalator cliff rope tightrope
    fall falling drop descend sink tumble plunge
    desert sand dune dry thirst drought cracked mirage
    art painting drawing museum picture frame draw paint portrait artist gallery
    stone statue rock marble pedestal sculpture boulder
    boat ship sail row oar mast sailor harbour fishing fisherman anchor raft rigging
    wait patience waiting queue stop bus station
    clothes suit hat coat boots waistcoat pyjamas armour spectacles scarf dress glove sweater raincoat helmet shoe
    giant huge enormous tall big vast
    tiny small little miniature minute
    magic spell wizard witch enchanted wonder miracle impossible spell fairy
    freedom escape cage free release wings flight
    collection bottle jar bucket box container keep collector collect
    end final goodbye farewell gone departure ending
    horizon distance far edge infinity beyond
    hope wish promise future tomorrow someday
    fear danger nightmare monster scared afraid threat wolf
    insect moth butterfly spider silk web bee ant honeycomb
    morning dawn breakfast sunrise wake early
    season autumn winter spring summer
    school pencil eraser draw write lesson
    telephone call voice phone ring
    upside impossible strange absurd surreal topsy reverse
    fragile delicate careful balance house card glass
    umbrella shelter roof rain protect cover
    horse gallop saddle horseshoe carousel pony ride stable rider
    thread needle knit stitch sew scarf sweater wool unravel string yarn tailor
    film cinema screen actor movie projector photograph picture camera audience
    farm barn cow milk tractor plough field furrow harvest wheat goat farmyard pail
    tunnel underground escalator cave mine subway beneath burrow
    laundry wash sheet clothesline washing iron dry laundrette
    toy doll soldier tin rocking puppet carousel teddy robot
    fog mist haze smoke steam vapour cloud
    eye look see peer gaze stare glance watch spy glasses
    """.strip().splitlines()
)

_STEMMER = snowballstemmer.stemmer("english")
_NON_WORD = re.compile(r"[^\w]+|_+")


def normalise(text: str) -> str:
    """Casefold, fold accents away, and turn every run of punctuation or space into one space."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(_NON_WORD.sub(" ", folded).split())


@lru_cache(maxsize=65_536)
def words(text: str) -> tuple[str, ...]:
    """Every word of the text, normalised, in order (stopwords included)."""
    return tuple(normalise(text).split())


@lru_cache(maxsize=65_536)
def stem(word: str) -> str:
    return str(_STEMMER.stemWord(word))


@lru_cache(maxsize=65_536)
def content_stems(text: str) -> tuple[str, ...]:
    """The stems of the text's content words (no stopwords, digits or one-letter words), in first occurrence order."""
    out: dict[str, None] = {}
    for word in words(text):
        if len(word) < 2 or word in STOPWORDS or word.isdigit():
            continue
        out.setdefault(stem(word), None)
    return tuple(out)


def _build_index() -> dict[str, tuple[int, ...]]:
    index: dict[str, list[int]] = {}
    for number, group in enumerate(ASSOCIATIONS):
        for word in group:
            ids = index.setdefault(stem(normalise(word)), [])
            if number not in ids:
                ids.append(number)
    return {key: tuple(ids) for key, ids in index.items()}


_GROUPS_OF: dict[str, tuple[int, ...]] = _build_index()


def groups_of(word_stem: str) -> tuple[int, ...]:
    """The association groups a stem belongs to (indexes into ASSOCIATIONS)."""
    return _GROUPS_OF.get(word_stem, ())


@lru_cache(maxsize=16_384)
def _profile(card_stems: tuple[str, ...]) -> tuple[frozenset[str], tuple[frozenset[int], ...], frozenset[str]]:
    """A card's stems, the association groups of each, and the starts of its longer stems (for variants)."""
    groups = tuple(frozenset(groups_of(s)) for s in card_stems)
    starts = frozenset(s[:PREFIX_MIN] for s in card_stems if len(s) >= PREFIX_MIN)
    return frozenset(card_stems), groups, starts


@lru_cache(maxsize=262_144)
def word_fit(clue_stem: str, card_stems: tuple[str, ...]) -> float:
    """How well one clue stem fits a card (given as its content stems)."""
    stems, groups, starts = _profile(card_stems)
    if clue_stem in stems:
        return EXACT
    mine = groups_of(clue_stem)
    if mine:
        hits = sum(1 for g in groups if not g.isdisjoint(mine))
        if hits:
            return min(RELATED_MAX, RELATED + 0.1 * (hits - 1))
    if len(clue_stem) >= PREFIX_MIN and clue_stem[:PREFIX_MIN] in starts:
        return PREFIX  # a shared start of PREFIX_MIN letters: two forms of one word, most likely
    return 0.0


@lru_cache(maxsize=262_144)
def fit(clue: str, card_text: str) -> float:
    """How well `card_text` fits `clue`, in [0, 1]: 0 for nothing in common, 1 when every clue word is on the card."""
    clue_stems = content_stems(clue)
    if not clue_stems:
        return 0.0
    card_stems = content_stems(card_text)
    if not card_stems:
        return 0.0
    return sum(word_fit(s, card_stems) for s in clue_stems) / len(clue_stems)


def fits(clue: str, texts: Iterable[str]) -> list[float]:
    """`fit(clue, text)` for each text, in order."""
    return [fit(clue, t) for t in texts]
