"""Word lists of the offline judge, per language: stop words (which also vote for a Latin-script
text's language), Snowball stemmer names, number and date words, Korean particles.

Small and hand-written: stop words decide what a "content word" is. How informative a content word
is comes from corpus frequencies instead (:mod:`.weights`).
"""

from __future__ import annotations

STOPWORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        """a about above after again against all also am an and any are aren as at be because been
        before being below between both but by can cannot could couldn did didn do does doesn doing don
        down during each either few for from further had hadn has hasn have haven having he her here hers
        herself him himself his how however i if in into is isn it its itself just let ll me more most
        much must mustn my myself neither no nor not now of off on once one only or other ought our ours
        ourselves out over own re s said same say says shall she should shouldn so some such t than
        that the their theirs them themselves then there these they this those though through to too
        under until up upon us ve very was wasn we were weren what when where whether which while who
        whom whose why will with within without would wouldn yet you your yours yourself
        yourselves also according told tell mr mrs ms dr new like get got make made well back even still
        way many another among around may might""".split()
    ),
    "de": frozenset(
        """aber alle als also am an auch auf aus bei bin bis bist da dadurch daher darum das dass dem
        den der des dessen die dies diese dieser dieses doch dort du durch ein eine einem einen einer
        eines er es euer eure für hatte hatten hat hattest hier hinter ich ihr ihre im in ist ja jede
        jedem jeden jeder jedes jener jetzt kann kannst können könnt machen mein meine mit muss musst
        müssen nach nachdem nein nicht nun noch nur ob oder ohne sehr sein seine sich sie sind so
        sondern sowie über um und uns unser unter vom von vor wann warum was weiter weitere wenn wer
        werde werden wie wieder wir wird wirst wo zu zum zur wurde wurden war waren sagte""".split()
    ),
    "fr": frozenset(
        """a ai au aux avec avait ce ces cet cette dans de des du elle elles en est et été être eux il
        ils je la le les leur leurs lui ma mais me même mes moi mon ne nos notre nous on ont ou où par
        pas pour qu que qui sa se ses son sont sur ta te tes toi ton tu un une vos votre vous y était
        étaient sera fait plus selon comme dit""".split()
    ),
    "es": frozenset(
        """a al algo ante como con contra cual cuando de del desde donde durante e el ella ellas ellos
        en entre era es esa ese eso esta este esto estos fue fueron ha han hasta hay la las le les lo
        los más me mi muy no nos o otra otro para pero por que qué se ser si sin sobre son su sus también
        te tu un una uno unos y ya dijo según""".split()
    ),
    "it": frozenset(
        """a ad al alla alle allo anche che chi ci con come da dal dalla dei del della delle dello di
        e è ed era erano gli ha hanno i il in la le lo ma mi ne nei nel nella non o per più quale quando
        questa questo se si sono su sua sue suo tra un una uno fu ha detto secondo""".split()
    ),
    "pt": frozenset(
        """a ao aos as à com como da das de do dos e é ela elas ele eles em entre era foi foram há isso
        isto já mais mas me muito na nas não no nos o os ou para pela pelas pelo pelos por que se sem
        ser seu seus sua suas também um uma uns disse segundo""".split()
    ),
    "nl": frozenset(
        """aan al alles als bij dan dat de der deze die dit door een en er geen had heb hebben heeft
        het hij hoe hun ik in is je kan maar me met mij na naar niet nog nu of om omdat ons ook op
        over te tegen toen tot u uit van voor was waren wat we wel werd wie wij wordt zal ze zei zich
        zij zijn zo zou""".split()
    ),
}

SNOWBALL = {
    "en": "english",
    "de": "german",
    "fr": "french",
    "es": "spanish",
    "it": "italian",
    "pt": "portuguese",
    "nl": "dutch",
    "ru": "russian",
    "sv": "swedish",
}

# English number words, so that "seven minutes" matches "7 minutes".
NUMBER_WORDS = {
    w: str(i)
    for i, w in enumerate(
        """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
        fifteen sixteen seventeen eighteen nineteen twenty""".split()
    )
}
NUMBER_WORDS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70",
                     "eighty": "80", "ninety": "90", "hundred": "100", "thousand": "1000",
                     "dozen": "12", "first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th",
                     "fifth": "5th", "sixth": "6th", "seventh": "7th", "eighth": "8th", "ninth": "9th",
                     "tenth": "10th"})
# Decades as words ("the Sixties") are the same figure as "the 60s".
NUMBER_WORDS.update({w: str(10 * i) for i, w in enumerate(
    "twenties thirties forties fifties sixties seventies eighties nineties".split(), start=2)})
# "one" is too often a pronoun ("the one who"); it is a stop word, a number only before a unit.
NUMBER_WORDS.pop("one")
ONE_OF_A_UNIT = frozenset(
    """second minute hour week month year decade century metre meter kilometre mile foot inch
    kilogram kilo tonne ton litre gallon degree goal vote seat lap set""".split()
)
"""Units that make "one" a number before them ("delayed by one hour" is no "two hours"); elsewhere
"one" is a pronoun as often as a count ("one of the", "no one", "hopes to one day"), a stop word."""
SCALE_WORDS = frozenset({"million", "billion", "trillion", "millions", "billions", "m", "bn"})
PERCENT_WORDS = frozenset({"percent", "per cent", "pct", "prozent", "pour cent", "por ciento", "per cento"})

OPENING_WORDS_EN = frozenset(
    """several multiple numerous various every additionally instead meanwhile later earlier shortly nearly
    almost luckily fortunately unfortunately sadly thankfully recently currently previously finally
    eventually initially originally apparently reportedly allegedly officially today yesterday
    tonight along overall together afterwards ultimately subsequently similarly furthermore moreover
    consequently therefore thus hence despite during following amid meantime elsewhere here there
    people officials authorities fans residents locals experts researchers scientists investigators
    witnesses visitors viewers critics police doctors parents teams players""".split()
)
"""English words that open a sentence and are no names (quantifiers, sentence adverbs, prepositions,
people in general): the judge reads a capitalised first word it cannot find as a possible name
(:func:`..offline.wrong_names._opening_name`); these it never takes for one."""

_ED_NOT_VERBS = frozenset(
    "aged hundred speed greed creed steed tweed indeed sacred naked wicked kindred infrared".split()
)


def ed_verb(low: str) -> bool:
    """The lower-cased word reads as a verb form in -ed ("voted", "agreed", "need"), not a word that
    only ends so ("speed", "hundred", "indeed"): a words-only guess that every English rule shares."""
    return len(low) > 3 and low.endswith("ed") and low not in _ED_NOT_VERBS


OUTCOME_VERBS = frozenset("won wins win beat beats lost loses led leads took takes ran runs".split())
"""Verbs of who won and who lost that :data:`IRREGULAR_EN` leaves out as ambiguous ("won" is also a
currency) or that a words-only reader must know as verbs right after a name ("Kiprop won")."""

ORDINAL_WORDS = frozenset("first second third fourth fifth sixth seventh eighth ninth tenth".split())
"""Spelled ordinals: numbers to the analyser ("first" is 1st), but often a way of saying ("the first lady"),
so neither a proof nor a missing key fact rests on them alone."""

DATE_WORDS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday
    sunday""".split()
)
# "may", "march" and "sun" are also ordinary words; they count as dates only when capitalised.
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
"""A news text's weekday ("voted on Tuesday") is detail, not the point of a fact: coverage neither
asks for it nor fails a summary that leaves it out."""

PEOPLES_EN = frozenset(
    """afghan african albanian algerian american arab argentine argentinian armenian asian australian
    austrian bangladeshi belgian bolivian bosnian brazilian british bulgarian burmese cambodian cameroonian
    canadian chilean chinese colombian congolese croatian cuban cypriot czech danish dutch ecuadorian
    egyptian english eritrean estonian ethiopian european filipino finnish french georgian german ghanaian
    greek guatemalan haitian honduran hungarian icelandic indian indonesian iranian iraqi irish israeli
    italian ivorian jamaican japanese jordanian kazakh kenyan korean kosovan kurdish kuwaiti latvian
    lebanese liberian libyan lithuanian malaysian malian mexican moroccan mozambican nepalese nigerian
    nigerien norwegian pakistani palestinian panamanian peruvian polish portuguese qatari romanian russian
    rwandan saudi scottish senegalese serbian slovak slovenian somali spanish sudanese swedish swiss
    syrian taiwanese tanzanian thai tunisian turkish ugandan ukrainian uruguayan venezuelan vietnamese
    welsh yemeni zambian zimbabwean""".split()
)
"""English names of peoples and their adjectives: a written capital, never lower-cased at the head
of a question ("Is it true that Kenyan runner Faith Chepkoech won ...")."""

# Korean particles and copula endings that attach to a word; the longest match is removed.
KO_PARTICLES = tuple(
    sorted(
        """은 는 이 가 을 를 의 에 에서 에게 에게서 께 께서 한테 으로 로 으로서 로서 으로써 로써 와 과 도 만
        부터 까지 보다 처럼 이나 나 이며 이고 이다 였다 이었다 입니다 이었습니다 라고 이라고 고 에는 에서는
        으로는 로는 와는 과는 에도 에서도 들 들은 들이 들을 들의 들에게""".split(),
        key=len,
        reverse=True,
    )
)

# Words that open a clause: a phrase (the scope of a negation or an antonym) ends before them.
PHRASE_OPENERS: dict[str, frozenset[str]] = {
    "en": frozenset("and but while whereas although though because which who whom after before when "
                    "if since unless until whether".split()),
    "de": frozenset("und aber während weil obwohl denn sondern nachdem bevor wenn dass als ob".split()),
    "fr": frozenset("et mais parce lorsque quand qui puisque bien".split()),
    "es": frozenset("y pero porque cuando aunque mientras que".split()),
    "it": frozenset("e ma perché quando mentre che".split()),
    "pt": frozenset("e mas porque quando enquanto que".split()),
    "nl": frozenset("en maar omdat wanneer terwijl dat".split()),
}

# The word data a judge reads: ``CORE`` is what a plain install has (this module's lists and the
# Snowball stemmers); ``WORDFREQ`` adds wordfreq's frequencies and simplemma's lemmas (opt-in:
# ``offline/lexical+wordfreq``).
CORE = "core"
WORDFREQ = "wordfreq"

# English irregular verbs: base, past, past participle (a grammar book's table), so that "sang",
# "sung" and "sings" are one word without a lemmatiser. Plus the irregular plurals of news text.
_IRREGULAR_VERBS = """arise arose arisen; awake awoke awoken; be was been; bear bore borne born; beat beat beaten;
become became become; begin began begun; bend bent bent; bet bet bet; bind bound bound; bite bit bitten;
bleed bled bled; blow blew blown; break broke broken; breed bred bred; bring brought brought;
build built built; burn burnt burnt; burst burst burst; buy bought bought; catch caught caught;
choose chose chosen; cling clung clung; come came come; cost cost cost; creep crept crept; cut cut cut;
deal dealt dealt; dig dug dug; do did done; draw drew drawn; drink drank drunk; drive drove driven;
eat ate eaten; fall fell fallen; feed fed fed; feel felt felt; fight fought fought; find found found;
flee fled fled; fly flew flown; forbid forbade forbidden; forget forgot forgotten; forgive forgave forgiven;
freeze froze frozen; get got gotten; give gave given; go went gone; grind ground ground; grow grew grown;
hang hung hung; have had had; hear heard heard; hide hid hidden; hit hit hit; hold held held; hurt hurt hurt;
keep kept kept; kneel knelt knelt; know knew known; lay laid laid; lead led led; leap leapt leapt;
leave left left; lend lent lent; let let let; lie lay lain; light lit lit; lose lost lost; make made made;
mean meant meant; meet met met; mislead misled misled; overcome overcame overcome; pay paid paid;
put put put; quit quit quit; read read read; ride rode ridden; ring rang rung; rise rose risen; run ran run;
say said said; see saw seen; seek sought sought; sell sold sold; send sent sent; set set set;
shake shook shaken; shed shed shed; shine shone shone; shoot shot shot; show showed shown;
shrink shrank shrunk; shut shut shut; sing sang sung; sink sank sunk; sit sat sat; sleep slept slept;
slide slid slid; speak spoke spoken; speed sped sped; spend spent spent; spin spun spun; split split split;
spread spread spread; spring sprang sprung; stand stood stood; steal stole stolen; stick stuck stuck;
sting stung stung; strike struck struck; strive strove striven; swear swore sworn; sweep swept swept;
swim swam swum; swing swung swung; take took taken; teach taught taught; tear tore torn; tell told told;
think thought thought; throw threw thrown; undergo underwent undergone; understand understood understood;
undertake undertook undertaken; upset upset upset; wake woke woken; wear wore worn; weep wept wept;
win won won; wind wound wound; withdraw withdrew withdrawn; write wrote written;
uphold upheld upheld; withhold withheld withheld; withstand withstood withstood; overtake overtook overtaken;
oversee oversaw overseen; overthrow overthrew overthrown; override overrode overridden; overrun overran overrun;
overhear overheard overheard; foresee foresaw foreseen; mistake mistook mistaken; outgrow outgrew outgrown;
outrun outran outrun; rebuild rebuilt rebuilt; rewrite rewrote rewritten; undo undid undone; fling flung flung;
wring wrung wrung; sling slung slung; stride strode stridden; tread trod trodden; weave wove woven;
forsake forsook forsaken; slay slew slain"""
IRREGULAR_EN: dict[str, str] = {}
for _entry in _IRREGULAR_VERBS.replace("\n", " ").split(";"):
    _base, *_forms = _entry.split()
    for _form in _forms:
        if _form != _base:
            IRREGULAR_EN.setdefault(_form, _base)
IRREGULAR_PLURALS: dict[str, str] = {
    "men": "man", "women": "woman", "children": "child", "mice": "mouse", "feet": "foot", "teeth": "tooth",
    "geese": "goose", "lives": "life", "wives": "wife", "knives": "knife", "wolves": "wolf", "thieves": "thief",
    "leaves": "leaf",
}
"""Nouns with an irregular plural: in :data:`IRREGULAR_EN` for stemming, but no verb forms."""
IRREGULAR_EN.update(IRREGULAR_PLURALS)
UNIT_SPELLINGS: dict[str, str] = {
    "km": "kilometre", "kms": "kilometre", "kilometer": "kilometre", "kilometers": "kilometre",
    "cm": "centimetre", "centimeter": "centimetre", "centimeters": "centimetre", "mm": "millimetre",
    "millimeter": "millimetre", "millimeters": "millimetre", "meter": "metre", "meters": "metre",
    "kg": "kilogram", "kgs": "kilogram", "kilo": "kilogram", "kilos": "kilogram", "ft": "foot",
}
"""Abbreviations and American spellings of units, read as one word ("11 km" is "11 kilometres");
"m" is left alone (it is also "million")."""
DEMONYMS_EN = tuple(
    pair.split(":") for pair in """america:american britain:british england:english france:french
    germany:german spain:spanish italy:italian portugal:portuguese netherlands:dutch holland:dutch
    belgium:belgian switzerland:swiss austria:austrian sweden:swedish norway:norwegian denmark:danish
    finland:finnish poland:polish russia:russian ukraine:ukrainian greece:greek turkey:turkish
    ireland:irish scotland:scottish wales:welsh china:chinese japan:japanese korea:korean india:indian
    pakistan:pakistani iran:iranian iraq:iraqi israel:israeli egypt:egyptian canada:canadian
    mexico:mexican brazil:brazilian argentina:argentine argentina:argentinian australia:australian
    kenya:kenyan nigeria:nigerian ethiopia:ethiopian uganda:ugandan""".split()
)
"""Countries and the adjectives of their people: "France's president" is "the French president"."""
MONTH_ABBREVIATIONS: dict[str, str] = {
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december",
}
"""A month's abbreviation is the month ("Jan. 26" dates what "late January" dates)."""
SPELLINGS_EN: dict[str, str] = UNIT_SPELLINGS | MONTH_ABBREVIATIONS
"""Other spellings of one English word, read as that word (:func:`.word_lookups.lemma`)."""
AMBIGUOUS_PASTS = frozenset({"found", "lay", "left", "ground", "wound", "saw", "bound", "rose"})
"""Past forms that are also common words of their own ("found" a company, "left" wing, a "rose"): not
read as a verb form by themselves; a rule reads them by the words around them, as
:data:`SAME_FORM_PASTS`."""
for _ambiguous in (*AMBIGUOUS_PASTS, "leaves", "lives", "won"):
    IRREGULAR_EN.pop(_ambiguous, None)


SAME_FORM_PASTS = frozenset("cut put hit set let quit spread cost hurt shut bet split burst cast thrust upset".split())
"""Irregular verbs whose past is their base ("The drug cut the risk"): :func:`irregular_past` cannot
tell them from the base, so a rule reads them by the word before."""


def irregular_past(low: str) -> bool:
    """The lower-cased word is an irregular verb form other than the base ("kept", "sold"), not a plural."""
    return low in IRREGULAR_EN and IRREGULAR_EN[low] != low and low not in IRREGULAR_PLURALS


def ends_in_s(low: str) -> bool:
    """The lower-cased word ends in a single -s and is longer than three letters: a plural noun or a
    verb's third person ("plays", "people's" aside), which only the words around it tell apart."""
    return len(low) > 3 and low.endswith("s") and not low.endswith("ss")


def past_form(low: str) -> bool:
    """The lower-cased word reads as a past form: in -ed (:func:`ed_verb`) or irregular ("laid")."""
    return ed_verb(low) or irregular_past(low)


DETERMINERS_EN = frozenset("the a an his her its their this that these those our my your some all both".split())
"""Words between a verb or a link word and the noun it governs ("cancelled *its* London routes")."""

# Words that state no fact of their own in English news text: they may stand in a claim without
# occurring in the source (a summary's framing, a general noun, a reporting verb that retells
# "said"). They still count in every other check (negation, antonyms, roles).
LIGHT_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        """time times thing things way ways lot lots kind sort part fact case people person
        someone something anyone anything everyone everything number numbers
        reportedly allegedly apparently currently recently previously already actually really
        reveal reveals revealed claim claims claimed report reports reported announce announces
        announced confirm confirms confirmed explain explains explained add adds added insist insists
        insisted describe describes described admit admits admitted state states stated say says
        comment comments commented note notes noted believe believes believed think thinks thought
        feel feels felt suggest suggests suggested call calls called dubbed named
        include includes including included involve involves involved
        set sets come comes came go goes went going take takes took taken""".split()
    ),
}

# English personal pronouns that point back to someone the text has named ("it" is left out: it
# is as often a dummy subject, "It's been a year since ...").
PRONOUNS: dict[str, frozenset[str]] = {
    "en": frozenset("he she they him her them his hers their theirs himself herself themselves".split()),
}
