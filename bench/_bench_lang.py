"""Text content of the benchmark folder, part 2: notes in Hindi, Tamil, Spanish and French.

Real sentences, written for this benchmark; every person and place-specific detail invented.
Each entry: relative path -> (mtime day, text).
"""
from __future__ import annotations

LANG_NOTES: dict[str, tuple[str, str]] = {}


def note(rel: str, day: str, text: str) -> None:
    assert rel not in LANG_NOTES, rel
    LANG_NOTES[rel] = (day, text.strip("\n") + "\n")


# ============================================================================================
# Hindi
# ============================================================================================

note("notes/hindi/dadi-ki-dal.md", "2024-06-09", """
# दादी की अरहर दाल

यह नुस्खा दादी हमेशा रविवार को बनाती थीं। चार लोगों के लिए काफ़ी है।

## सामग्री

- एक कप अरहर (तूर) की दाल
- तीन कप पानी
- आधा चम्मच हल्दी और स्वाद अनुसार नमक
- एक टमाटर, बारीक कटा हुआ
- तड़के के लिए: दो चम्मच देसी घी, एक चम्मच जीरा, चुटकी भर हींग, चार लहसुन की कलियाँ और दो सूखी लाल मिर्च

## विधि

1. दाल को अच्छी तरह धोकर आधे घंटे के लिए भिगो दें।
2. प्रेशर कुकर में दाल, पानी, हल्दी और नमक डालकर तीन सीटी आने तक पकाएँ।
3. कुकर ठंडा होने पर दाल को हल्का सा घोंट लें, टमाटर डालें और पाँच मिनट उबालें।
4. एक छोटे पैन में घी गरम करें और जीरा डालें। जीरा चटकने लगे तो हींग, लहसुन और लाल मिर्च डालें।
5. यह तड़का तुरंत दाल पर डालें और ढक्कन बंद कर दें ताकि खुशबू अंदर ही रहे।

दादी कहती थीं कि तड़का हमेशा आख़िर में और गरम-गरम डालना चाहिए। ऊपर से हरा धनिया और थोड़ा नींबू का रस डालें। चावल या रोटी के साथ परोसें।
""")

note("notes/hindi/varanasi-yatra.md", "2024-03-28", """
# वाराणसी यात्रा - मार्च 2024

## पहला दिन

हम सुबह की ट्रेन से वाराणसी पहुँचे। होटल दशाश्वमेध घाट के पास एक पुरानी हवेली में था। शाम को घाट पर गंगा आरती देखी। सैकड़ों दीये, घंटियों की आवाज़ और लोगों की भीड़ - ऐसा नज़ारा पहले कभी नहीं देखा था।

## दूसरा दिन

सूरज निकलने से पहले हमने नाव ली और अस्सी घाट से मणिकर्णिका घाट तक गए। नाविक रमेश जी ने हर घाट की कहानी सुनाई। नदी पर हल्की धुंध थी और पानी बिल्कुल शांत था। दोपहर में तंग गलियों में घूमे, कचौड़ी और जलेबी का नाश्ता किया, और माँ के लिए एक बनारसी साड़ी ख़रीदी।

## तीसरा दिन

सारनाथ गए, जहाँ बुद्ध ने अपना पहला उपदेश दिया था। संग्रहालय में अशोक स्तंभ का सिंह शीर्ष देखा। शाम को लौटकर आख़िरी बार घाट की सीढ़ियों पर बैठे और कुल्हड़ में लस्सी पी।

अगली बार सर्दियों में आना है, जब देव दीपावली होती है।
""")

note("notes/hindi/papa-doctor-salah.md", "2025-08-12", """
# पापा की जाँच - डॉक्टर की सलाह, 12 अगस्त 2025

आज डॉ. मेहता ने पापा का रक्तचाप नापा: 150/95, जो सामान्य से ज़्यादा है। शुगर ठीक है। डॉक्टर ने कहा कि अभी घबराने की बात नहीं है, लेकिन आदतें बदलनी होंगी।

## डॉक्टर की बातें

- रोज़ सुबह कम से कम तीस मिनट तेज़ चलना है।
- खाने में नमक कम करना है; अचार और पापड़ बिल्कुल बंद।
- नई दवा हर सुबह नाश्ते के बाद एक गोली। कोई दिन छोड़ना नहीं है।
- हर हफ़्ते घर पर रक्तचाप नापकर एक डायरी में लिखना है।
- अगली जाँच तीन महीने बाद, नवंबर के दूसरे हफ़्ते में। ख़ून की जाँच खाली पेट करानी है।

अगर चक्कर आएँ या सिर में तेज़ दर्द हो तो तुरंत क्लिनिक में फ़ोन करना है। माँ ने कहा कि वे पापा के साथ शाम को भी टहलने जाएँगी।
""")

note("notes/hindi/ghar-ka-budget.md", "2025-10-05", """
# घर का मासिक बजट - अक्टूबर 2025

इस महीने की आमदनी और ख़र्च का हिसाब।

- किराया: 18,000 रुपये
- बिजली और पानी: 2,400 रुपये
- राशन और सब्ज़ी: 9,500 रुपये
- बच्चों की स्कूल फ़ीस: 6,000 रुपये
- पेट्रोल और ऑटो: 3,200 रुपये
- मोबाइल और इंटरनेट: 1,100 रुपये

## बचत

हर महीने 10,000 रुपये बचत खाते में अलग रखने हैं। दिवाली के लिए इस बार 15,000 रुपये अलग से रखे हैं: मिठाई, नए कपड़े और घर की सफ़ाई-पुताई के लिए।

इस महीने गैस सिलेंडर दो बार लेना पड़ा, इसलिए राशन का ख़र्च थोड़ा बढ़ गया। अगले महीने बाहर खाना कम करना है।
""")

# ============================================================================================
# Tamil
# ============================================================================================

note("notes/tamil/sambar-seimurai.md", "2024-08-18", """
# சாம்பார் செய்முறை (அம்மாவின் முறை)

நான்கு பேருக்கு போதுமானது.

## தேவையான பொருட்கள்

- துவரம் பருப்பு - அரை கப்
- புளி - ஒரு எலுமிச்சை அளவு
- சின்ன வெங்காயம் - பத்து
- முருங்கைக்காய் - ஒன்று, கத்தரிக்காய் - இரண்டு
- சாம்பார் பொடி - இரண்டு தேக்கரண்டி
- கடுகு, வெந்தயம், கறிவேப்பிலை, பெருங்காயம், உப்பு

## செய்முறை

1. பருப்பை மஞ்சள் தூளுடன் குக்கரில் மூன்று விசில் வரும் வரை வேக வைக்கவும்.
2. புளியை வெந்நீரில் ஊற வைத்து கரைசல் எடுக்கவும்.
3. காய்கறிகளையும் வெங்காயத்தையும் புளிக் கரைசலில் சாம்பார் பொடி, உப்பு சேர்த்து வேக வைக்கவும்.
4. வெந்த பருப்பை சேர்த்து பத்து நிமிடம் கொதிக்க விடவும்.
5. எண்ணெயில் கடுகு, வெந்தயம், கறிவேப்பிலை, பெருங்காயம் தாளித்து சாம்பாரில் ஊற்றவும்.

கொத்தமல்லி தூவி சூடான சாதம் அல்லது இட்லியுடன் பரிமாறவும். சாம்பார் மறுநாள் இன்னும் சுவையாக இருக்கும் என்று அம்மா எப்போதும் சொல்வார்.
""")

note("notes/tamil/madurai-payanam.md", "2025-01-19", """
# மதுரை பயணம் - ஜனவரி 2025

பொங்கல் விடுமுறையில் குடும்பத்துடன் மதுரைக்கு சென்றோம். ரயில் அதிகாலை ஐந்து மணிக்கு வந்து சேர்ந்தது.

முதல் நாள் காலையில் மீனாட்சி அம்மன் கோவிலுக்கு சென்றோம். வண்ணமயமான உயரமான கோபுரங்களில் ஆயிரக்கணக்கான சிற்பங்கள் இருந்தன. ஆயிரம் கால் மண்டபத்தில் ஒவ்வொரு தூணும் வெவ்வேறு விதமாக செதுக்கப்பட்டிருந்தது. பொற்றாமரைக் குளத்தின் அருகே சிறிது நேரம் அமர்ந்தோம்.

மாலையில் திருமலை நாயக்கர் மஹாலில் ஒளி ஒலி காட்சி பார்த்தோம். இரவு உணவுக்கு பிறகு புகழ்பெற்ற ஜிகர்தண்டா குடித்தோம்; குழந்தைகளுக்கு மிகவும் பிடித்தது.

இரண்டாம் நாள் அழகர் கோவிலுக்கு சென்று, மதியம் பாட்டி வீட்டில் பொங்கல் சாப்பிட்டோம். அடுத்த முறை சித்திரைத் திருவிழாவின் போது வர வேண்டும்.
""")

note("notes/tamil/amma-thottam.md", "2025-04-27", """
# அம்மாவின் தோட்டம் - குறிப்புகள்

அம்மாவின் வீட்டு தோட்டத்தில் மல்லிகை, கறிவேப்பிலை, தக்காளி, வெண்டைக்காய் மற்றும் துளசி உள்ளன.

- தண்ணீர்: காலை ஏழு மணிக்கு முன் ஊற்ற வேண்டும். வெயில் காலத்தில் மாலையிலும் கொஞ்சம்.
- மல்லிகை செடிக்கு மாதம் ஒரு முறை மாட்டு எரு போட வேண்டும். பூ பூத்த பின் கிளைகளை வெட்டினால் அடுத்த முறை அதிக பூக்கள் வரும்.
- மல்லிகை இலைகளில் பூச்சி வந்தால், ஒரு லிட்டர் தண்ணீரில் ஐந்து மில்லி வேப்ப எண்ணெய் மற்றும் சிறிது சோப்பு கலந்து வாரம் ஒரு முறை தெளிக்கவும்.
- கறிவேப்பிலை செடிக்கு புளித்த மோர் ஊற்றினால் இலைகள் நன்றாக வளரும் என்று அம்மா சொல்கிறார்.
- தக்காளி செடிகளுக்கு குச்சி கட்ட வேண்டும்.

அடுத்த மாதம் புதிதாக ஒரு எலுமிச்சை மரக்கன்று நட வேண்டும்.
""")

note("notes/tamil/palli-nanbargal-sandhippu.md", "2025-10-20", """
# பள்ளி நண்பர்கள் சந்திப்பு - இருபது ஆண்டுகள்

எங்கள் பள்ளியின் 2005 ஆம் ஆண்டு பத்தாம் வகுப்பு நண்பர்களின் சந்திப்பு.

- தேதி: 27 டிசம்பர் 2025, சனிக்கிழமை, மாலை நான்கு மணி முதல்.
- இடம்: கோயம்புத்தூரில் உள்ள ஒரு ஹோட்டலின் சிறிய அரங்கம், முன்பதிவு செய்யப்பட்டது.
- இதுவரை நாற்பத்தைந்து பேர் வருவதாக சொல்லியுள்ளனர்.
- ஒவ்வொருவரும் ஆயிரத்து ஐநூறு ரூபாய் செலுத்த வேண்டும்; இதில் இரவு உணவும் நினைவுப் பரிசும் அடங்கும்.
- எங்கள் தமிழ் ஆசிரியை திருமதி வசந்தா அவர்களையும் அழைத்துள்ளோம்.

செய்ய வேண்டியவை: பழைய புகைப்படங்களை சேகரித்து ஒரு காட்சி தயாரிப்பது, வாட்ஸ்அப் குழுவில் பணம் செலுத்தியவர்களின் பட்டியலை பகிர்வது.
""")

# ============================================================================================
# Spanish
# ============================================================================================

note("notes/espanol/tortilla-de-patatas.md", "2024-05-12", """
# Tortilla de patatas (la de mi tía Carmen)

Para cuatro personas. Una hora, sin prisas.

## Ingredientes

- 5 patatas medianas
- 1 cebolla grande
- 6 huevos
- aceite de oliva abundante y sal

## Preparación

1. Pelar las patatas y cortarlas en láminas finas. Picar la cebolla.
2. Freír las patatas y la cebolla a fuego lento en mucho aceite durante unos 25 minutos. Tienen
   que quedar blandas, no crujientes.
3. Escurrir bien el aceite y mezclar con los huevos batidos y la sal. Dejar reposar diez minutos.
4. Cuajar la mezcla en una sartén pequeña con un poco de aceite, a fuego medio.
5. Darle la vuelta con un plato grande, con decisión, y cuajar el otro lado dos minutos.

Mi tía la deja un poco jugosa por dentro. Está aún mejor fría al día siguiente, con pan.
""")

note("notes/espanol/camino-de-santiago.md", "2024-09-28", """
# Camino de Santiago - últimos cien kilómetros

Salimos de Sarria el 20 de septiembre y llegamos a Santiago seis días después.

- Día 1: Sarria a Portomarín, 22 km. Mucha gente, bosques de robles y niebla por la mañana.
- Día 2: Portomarín a Palas de Rei, 25 km. La etapa más dura; me salió la primera ampolla.
- Día 3: Palas de Rei a Arzúa, 29 km. Comimos pulpo en Melide, como todo el mundo.
- Día 4: Arzúa a O Pedrouzo, 19 km. Lluvia todo el día.
- Día 5: O Pedrouzo a Santiago, 20 km. Llegamos a la plaza del Obradoiro a las dos de la tarde.

Dormimos en albergues, entre diez y quince euros la noche. Lo mejor: la gente que conocimos.
Lo peor: las ampollas. La próxima vez, botas ya usadas y calcetines de lana.
""")

note("notes/espanol/clases-de-guitarra.md", "2025-03-09", """
# Clases de guitarra

Profesor: Julián, los martes a las 18:30, cuarenta y cinco minutos. Veinte euros por clase.

## Lo que estamos trabajando

- Acordes abiertos: do, re, mi menor, sol y la menor ya salen limpios.
- El acorde con cejilla de fa todavía suena apagado. Julián dice que es normal y que hay que
  practicarlo cinco minutos cada día, sin apretar demasiado.
- Ritmo de rumba: abajo, abajo, arriba, golpe. Con metrónomo a 80.
- Canción para el mes que viene: una bulería sencilla.

Practicar al menos veinte minutos diarios. Cambiar las cuerdas antes de junio.
""")

note("notes/espanol/mudanza-piso.md", "2024-08-20", """
# Mudanza al piso nuevo

Fecha de la mudanza: sábado 31 de agosto. La empresa de mudanzas llega a las ocho.

## Antes

- Pedir veinte cajas y cinta de embalar.
- Dar de baja la luz y el internet del piso viejo; dar de alta en el nuevo.
- Cambiar la dirección en el banco, en el médico y en el trabajo.
- Vaciar y limpiar la nevera el día anterior.

## Después

- Leer los contadores de la luz, el gas y el agua el primer día.
- Hacer fotos de cada habitación para el inventario.
- Comprar una lámpara para el salón y cortinas para el dormitorio.
""")

# ============================================================================================
# French
# ============================================================================================

note("notes/francais/ratatouille.md", "2024-08-25", """
# Ratatouille de ma grand-mère

Pour six personnes. Compter une heure et demie.

## Ingrédients

- 2 aubergines, 3 courgettes, 2 poivrons rouges
- 4 tomates bien mûres, 2 oignons, 3 gousses d'ail
- huile d'olive, thym, laurier, sel et poivre

## Préparation

1. Couper tous les légumes en gros dés.
2. Faire revenir chaque légume séparément dans l'huile d'olive : c'est le secret pour qu'ils
   gardent leur goût.
3. Réunir le tout dans une grande cocotte avec les tomates, l'ail, le thym et le laurier.
4. Laisser mijoter à feu doux pendant une heure, à couvert, en remuant de temps en temps.

Encore meilleure le lendemain. Ma grand-mère la servait froide en été, avec un œuf au plat.
""")

note("notes/francais/week-end-annecy.md", "2025-07-07", """
# Week-end à Annecy - juillet 2025

Vol tôt le vendredi jusqu'à Genève, puis une heure de bus jusqu'à Annecy.

Samedi, nous avons loué des vélos pour faire le tour du lac par la piste cyclable : environ
quarante kilomètres, plat côté ouest, quelques côtes vers Talloires. L'eau était d'un bleu
incroyable. Baignade à la plage de Doussard, pique-nique avec du reblochon et des abricots.

Dimanche matin, promenade dans la vieille ville le long des canaux, puis le marché. Le soir, une
tartiflette beaucoup trop copieuse.

À refaire en septembre, quand il y a moins de monde.
""")

note("notes/francais/atelier-poterie.md", "2025-02-23", """
# Atelier de poterie - notes de cours

Cours le jeudi soir avec Mathilde, à l'atelier de la rue des Tanneurs.

## Tournage

- Bien centrer la terre avant tout : les coudes appuyés sur les cuisses, les mains immobiles.
- Ouvrir la motte lentement, garder un fond d'un centimètre.
- Monter les parois en trois passes, pas plus, sinon la terre se fatigue.

## Tournassage

Attendre que la pièce soit à consistance de cuir. Retourner le bol et creuser le pied.

## Cuissons

Première cuisson (biscuit) à 980 degrés. Cuisson d'émail à 1240 degrés, montée lente, vingt
heures au total. L'émail moucheté donne de beaux résultats sur le grès.
""")

note("notes/francais/rendez-vous-veterinaire.md", "2025-09-29", """
# Rendez-vous chez la vétérinaire

Pour Biscuit. Clinique des Acacias, Docteure Lemaire.

- Date : mardi 14 octobre 2025 à 17 h 30.
- Motif : rappel annuel du vaccin contre le typhus et le coryza.
- Apporter le carnet de santé et le transporter la veille dans le salon pour qu'il s'habitue.
- Demander un vermifuge pour trois mois.
- Ne pas le nourrir deux heures avant.

Dernier rappel : octobre 2024. Prix indiqué au téléphone : 62 euros.
""")
