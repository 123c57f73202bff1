"""Function words dropped from keyword queries.

Deliberately short: big lists (stopwords-iso's 1,298 English words) drop words people search
for ("end", "great", "caption"). English plus the function words of the Latin-script languages
scent ships OCR for, since people type queries in those too.
"""

_EN = """
a an the and or but nor not no of in on at to for from by with without about into onto over under
is are was were be been being am do does did done have has had having will would shall should can
could may might must this that these those it its it's i me my mine we us our you your he him his
she her they them their there here what which who whom whose when where why how all any some each
every both either neither such than then so too very just also as if else while until up down out
off again further once only own same other more most few much many please find show give get look
looking search searching me i'm where's what's which's did doesn't don't isn't wasn't
"""
# Their question words too, as English's what/when/where/how: kept, a gloss read them as content words
# ("wann" as Wanne: vat), and a keyword query of three terms had to hold all three.
_ES = ("el la los las un una unos unas de del al y o que en con por para se su sus es lo como más pero "
       "qué cuándo cuando dónde donde cómo cuál cuáles cuánto cuánta cuántos cuántas quién quiénes")
_FR = ("le la les un une des du de et ou que qui en dans avec pour par sur au aux est ce cette son sa ses "
       "quand où pourquoi quel quelle quels quelles combien")
_DE = ("der die das den dem des ein eine einer und oder ist im mit von zu auf für nicht sich "
       "wann wie wo warum wieso weshalb welche welcher welches welchen wer wen wem wieviel")
_PT = ("o a os as um uma de do da dos das e ou que em no na nos nas com por para se "
       "quando onde porque porquê qual quais quanto quanta quantos quantas quem")

ENGLISH = frozenset(_EN.split())
STOPWORDS = frozenset(" ".join([_EN, _ES, _FR, _DE, _PT]).split())
