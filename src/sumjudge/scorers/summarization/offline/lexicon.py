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
        whom whose why will with within without won would wouldn yet you your yours yourself
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
# "one" is too often a pronoun ("the one who"); it is still a stop word, never a number.
NUMBER_WORDS.pop("one")
SCALE_WORDS = frozenset({"million", "billion", "trillion", "millions", "billions", "m", "bn"})
PERCENT_WORDS = frozenset({"percent", "per cent", "pct", "prozent", "pour cent", "por ciento", "per cento"})

DATE_WORDS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday saturday
    sunday""".split()
)
# "may", "march" and "sun" are also ordinary words; they count as dates only when capitalised.

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
