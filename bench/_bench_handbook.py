"""The 40 pages of the employee handbook: one topic per page (page number = index + 1).

Brightwell Ledger Ltd and everything about it is invented. Page 3 is an org chart drawn with
vector boxes (see _bench_docs.write_handbook); its entry here only names the people.
"""
from __future__ import annotations

HANDBOOK: list[tuple[str, list[str]]] = [
    ("Welcome to Brightwell Ledger", [
        "Brightwell Ledger builds the payment infrastructure behind about 3,200 online shops and "
        "marketplaces. We were founded in 2016 in Northmere and now employ 410 people in Northmere "
        "and Singapore.",
        "This handbook explains how we work together: your time, your pay and benefits, travel and "
        "expenses, security and the building. Each page covers exactly one topic, so you can print "
        "or share a single page.",
        "This edition takes effect on 1 January 2025 and replaces all earlier versions. If something "
        "here is unclear, or your situation is not covered, write to people@brightwell.example. "
        "Your contract of employment takes precedence where the two differ."]),
    ("Our values", [
        "Be boringly reliable. Merchants trust us with their revenue; a quiet day is a good day.",
        "Say what you see. Raise problems early, including your own mistakes. Nobody is blamed for "
        "reporting an incident.",
        "Leave it better. Fix the small thing you trip over, write down what you learned, and make "
        "the next person's job easier.",
        "Customers' money is sacred. When in doubt, stop and ask before touching payment data or "
        "moving funds."]),
    ("Who's who", [
        "Helen Achterberg (Chief Executive), Rafael Moreno (Chief Technology Officer), Grace Whitlow "
        "(Chief Financial Officer), Samira Haddad (People Director), Priya Nair (Head of Platform), "
        "Dmitri Volkov (Head of Payments), Ines Carvalho (Head of Risk)."]),
    ("Working hours", [
        "The standard working week is 37.5 hours, Monday to Friday. Core hours are 10:00 to 16:00: "
        "be available for meetings then, unless you are on leave or have agreed otherwise with your "
        "manager.",
        "Outside core hours you choose when to work. The earliest start is 07:30 and the latest "
        "finish 19:00 on a normal day. Take a lunch break of at least 30 minutes away from the screen.",
        "Part-time and compressed hours (for example four longer days) can be requested after the "
        "probation period; the people team answers every request within four weeks."]),
    ("Hybrid working", [
        "Most teams work from the office on Tuesdays and Thursdays (our anchor days) and wherever "
        "suits them on the other days. Teams may choose a different pattern if they write it down.",
        "Everyone receives a one-off home office budget of GBP 400 for a chair, desk or screen, and "
        "an internet allowance of GBP 20 per month paid with salary.",
        "Working from another country is possible for up to 20 working days per calendar year, with "
        "your manager's approval and a quick check by the people team for tax and visa rules. "
        "Production access from abroad needs the security team's approval in advance."]),
    ("Probation", [
        "New employees have a six-month probation period. Your manager holds a check-in after six "
        "weeks and a formal review after three months, with written feedback.",
        "During probation either side can end employment with one week's notice. Probation can be "
        "extended once, by up to three months, with clear written goals.",
        "Benefits that depend on service, such as the sabbatical, count from your first day, not "
        "from the end of probation."]),
    ("Pay day and payslips", [
        "Salaries are paid monthly on the 25th, or on the last working day before it when the 25th "
        "falls on a weekend or public holiday.",
        "Payslips and P60 forms are in the Paywell portal. Changes to your bank details must reach "
        "Paywell by the 10th to apply that month.",
        "Salaries are reviewed once a year, with changes taking effect on 1 April. The review looks "
        "at the market, your role and your performance reviews."]),
    ("Overtime, time off in lieu and on-call", [
        "Salaried employees are not paid overtime. When your manager asks you to work outside your "
        "normal hours, for example for a planned migration at night, you receive time off in lieu, "
        "hour for hour, to be taken within three months.",
        "On-call engineers receive an allowance of GBP 40 for each weekday night and GBP 150 for each "
        "weekend day or public holiday on call, plus time off in lieu for any time actually worked "
        "between 22:00 and 07:00."]),
    ("Annual leave", [
        "Full-time employees have 27 days of paid annual leave per year, plus public holidays. The "
        "leave year runs from January to December. Part-time colleagues receive a pro-rata amount.",
        "After five years of service you receive one extra day per year, up to a maximum of 30 days.",
        "Up to five unused days can be carried over into the next year, but they must be taken by "
        "31 March or they are lost. Book leave in Paywell; for more than five days in a row, give "
        "at least two weeks' notice."]),
    ("Public holidays", [
        "We observe the eight public holidays of England and Wales. The office is closed and "
        "on-call cover follows the weekend rota.",
        "You may swap up to three public holidays a year for other days that matter to you, such as "
        "Diwali, Eid al-Fitr, Yom Kippur or Lunar New Year. Tell your manager and the people team at "
        "least four weeks ahead; the swapped public holiday becomes a normal working day for you."]),
    ("Sickness absence", [
        "If you are ill, tell your manager before 10:00 on the first day, by phone or message. "
        "Record the absence in Paywell when you are back.",
        "You can self-certify up to seven calendar days. From the eighth day you need a fit note from "
        "a doctor.",
        "Company sick pay is full salary for up to 20 working days in any rolling twelve months, then "
        "statutory sick pay. After a long absence we agree a phased return with you."]),
    ("Parental leave", [
        "A birth parent receives 26 weeks at full pay, followed by 13 weeks of statutory pay, and may "
        "take up to 52 weeks in total.",
        "The second parent or partner receives 12 weeks at full pay, to be taken in one or more "
        "blocks within the first year after the birth or adoption.",
        "Adoptive parents and surrogacy parents receive the same. Up to ten paid keeping-in-touch "
        "days can be worked during leave, by agreement."]),
    ("Compassionate and carer's leave", [
        "When someone close to you dies you receive up to ten days of paid bereavement leave; take "
        "what you need and tell your manager as soon as you can.",
        "Pregnancy loss at any stage gives both parents two weeks of paid leave.",
        "Carer's leave: up to five paid days a year to arrange or give care to a dependant, for "
        "example after a hospital stay."]),
    ("Jury service and public duties", [
        "If you are called for jury service, tell your manager as soon as the summons arrives. You "
        "continue to receive full pay; you do not need to claim the court's loss of earnings "
        "allowance.",
        "Up to five paid days a year are available for public duties such as being a school "
        "governor, a magistrate, a reservist or a volunteer at a registered charity."]),
    ("Sabbatical", [
        "After five years of continuous service you can take a paid sabbatical of four weeks, once "
        "in every five-year period.",
        "The sabbatical can be combined with annual leave for a break of up to eight weeks. Apply at "
        "least three months in advance so that your team can plan cover.",
        "Sabbaticals that are not taken within two years of becoming eligible lapse."]),
    ("Pension", [
        "Everyone is enrolled in the Harbourline workplace pension. If you contribute at least 4 "
        "percent of your salary, the company contributes 6 percent.",
        "Contributions are made by salary sacrifice, which saves national insurance for you and for "
        "the company; the company adds its saving to your pension.",
        "You can change your contribution or opt out in Paywell at any time; changes apply from the "
        "next payroll."]),
    ("Health insurance and wellbeing", [
        "Private medical insurance with Meridian Health covers you from the first day. Partners and "
        "children can be added; this is a taxable benefit.",
        "Dental cover is optional at GBP 12 per month. Eye tests are reimbursed up to GBP 50 every "
        "two years, and glasses for screen work up to GBP 100.",
        "From the age of 40 you can book a free annual health check."]),
    ("Employee assistance programme", [
        "The employee assistance programme offers free, confidential support to you and your "
        "household, 24 hours a day, on 0808 157 0426.",
        "It includes up to six counselling sessions per issue, by phone, video or in person, as well "
        "as legal, debt and money advice.",
        "The company never learns who has called; we only receive yearly usage numbers."]),
    ("Learning and development", [
        "Every employee has a learning budget of GBP 1,200 per year and five learning days to spend "
        "on courses, books, certifications or conferences.",
        "Books under GBP 50 need no approval; keep the receipt and claim them as an expense. Courses "
        "and certifications need a short note to your manager about what you want to learn.",
        "Unused budget does not carry over to the next year."]),
    ("Conferences and speaking", [
        "Attending a conference is paid from your learning budget, up to two conferences a year.",
        "If you speak at a conference, the company pays your ticket and travel outside the learning "
        "budget and gives you one day off in lieu for preparation.",
        "Talks that describe our systems or incidents are reviewed by the communications team at "
        "least two weeks before the event."]),
    ("Expense claims", [
        "Claim expenses in Paywell within 60 days of spending the money. Itemised receipts are "
        "required for anything over GBP 25; a clear photo of the receipt is enough.",
        "Claims submitted by the 15th of the month are repaid with that month's salary.",
        "For single purchases over GBP 500, ask the finance team for a company card instead of paying "
        "yourself."]),
    ("Business travel", [
        "Book all travel through TravelDesk. Travel by rail in standard class; first class is allowed "
        "for journeys over three hours.",
        "Flights are economy class; premium economy is allowed for flights longer than six hours.",
        "Hotels: up to GBP 160 per night in London and GBP 120 elsewhere in the UK. Limits for other "
        "countries are listed in TravelDesk."]),
    ("Meals and subsistence", [
        "When you travel overnight for work, you can claim up to GBP 35 per day for meals.",
        "For day trips longer than five hours, lunch is covered up to GBP 12.",
        "Alcohol is not reimbursed, except at client dinners approved in advance by a director."]),
    ("Laptops and equipment", [
        "You receive a laptop (choice of two models) and a phone if your role needs one. Laptops are "
        "replaced every three years.",
        "Report a lost or stolen device to IT within 24 hours, so it can be locked and wiped.",
        "When you leave, return all equipment within five working days; IT sends you a prepaid "
        "courier box."]),
    ("IT security", [
        "Use the company password manager for every work account. A hardware security key is "
        "required for production access and for the admin consoles.",
        "Report suspicious emails with the Report button; never forward them. Lock your screen "
        "whenever you leave your desk.",
        "USB storage devices are blocked on company laptops, and customer data must never be stored "
        "on personal devices."]),
    ("Data protection and card data", [
        "Card numbers and other payment data must never appear in email, chat, tickets or documents. "
        "If you see card data where it should not be, do not copy it: report it to the security "
        "on-call at once.",
        "Requests from customers about their personal data go to the privacy team within 24 hours.",
        "A suspected data breach must be reported to security within one hour of discovery."]),
    ("Cycle to work", [
        "Our cycle-to-work scheme lets you get a bicycle and safety equipment (helmet, lights, lock) "
        "worth up to GBP 2,000 through salary sacrifice; for electric bikes the limit is GBP 3,500. "
        "The cost is repaid from your gross salary over 12 months, which saves tax and national "
        "insurance.",
        "Secure storage for 40 bicycles is on basement level -1, opened with your badge. There are "
        "six showers, lockers and a drying room next to it, and a repair stand with a pump.",
        "A mobile mechanic offers a free check of your bike twice a year, in April and October."]),
    ("Commuting and season tickets", [
        "Season tickets for train, bus or tram can be bought with an interest-free loan of up to "
        "GBP 5,000, repaid from your salary over ten months.",
        "The office car park has 12 spaces, reserved for blue badge holders and car sharers. Normal "
        "commuting costs are not reimbursed.",
        "If you work past 22:00 because of an incident, take a taxi home and claim it as an expense."]),
    ("Office facilities", [
        "Our office is on floors 2 to 5 of 40 Harrow Square. Each floor has a kitchen; fresh fruit "
        "arrives on Mondays and Wednesdays.",
        "Quiet rooms for focused work and phone calls are on floor 4. Desks are booked in the Deskly "
        "app; meeting rooms can be booked up to four weeks ahead.",
        "Please clear your desk at the end of the day."]),
    ("Visitors and building access", [
        "Wear your badge visibly at all times. A lost badge is replaced by reception for GBP 10.",
        "Register guests in Deskly by the day before. They sign in at reception on floor 2 and must "
        "be escorted at all times.",
        "The building is open from 06:00 to 22:00. Access at other times needs the facilities team's "
        "approval."]),
    ("Fire safety", [
        "The fire alarm is tested every Wednesday at 11:00; a short ring is the test.",
        "On a continuous alarm, leave by the nearest stairs immediately. Do not use the lifts and do "
        "not stop to collect belongings.",
        "The assembly point is the Harrow Square car park, next to the clock tower. Fire wardens wear "
        "yellow vests and check each floor. If you need help to evacuate, ask the facilities team "
        "for a personal evacuation plan."]),
    ("First aid and accidents", [
        "Trained first aiders wear a green badge; their names are on the noticeboard in every "
        "kitchen. First aid kits are in the kitchens, and a defibrillator is at reception on floor 2.",
        "Record every accident and near miss with the safety form within 24 hours, even if nobody "
        "was hurt."]),
    ("Dress code", [
        "There is no formal dress code. Dress for your day: smart casual for customer meetings, and "
        "whatever is comfortable otherwise.",
        "Visitors to the data centre must wear closed shoes; safety shoes are provided there."]),
    ("Social media and the press", [
        "Only the communications team speaks to journalists on behalf of the company. Send any press "
        "request to press@brightwell.example.",
        "On your personal social media, do not share non-public information, details of incidents or "
        "the names of our customers, and make clear that your views are your own."]),
    ("Gifts and hospitality", [
        "You may accept small gifts from customers or suppliers worth up to GBP 50. Anything worth "
        "more must be declared in the gifts register within seven days, and may have to be returned.",
        "Never accept cash or vouchers. Hospitality from a supplier taking part in a tender is not "
        "allowed at all."]),
    ("Conflicts of interest and outside work", [
        "Second jobs, side businesses and directorships are allowed when you declare them to your "
        "manager and the people team before you start, and they do not compete with us.",
        "Do not use company time, equipment or information for outside work.",
        "Declare any close personal relationship with a supplier, a candidate you interview or "
        "someone in your reporting line."]),
    ("Whistleblowing", [
        "If you suspect wrongdoing - fraud, a safety risk, a breach of law or regulation - report "
        "it through the independent Speak Up line on 0808 157 0781 or speakup@brightwell.example. "
        "You may stay anonymous.",
        "Nobody who raises a concern in good faith will suffer for it."]),
    ("Grievances", [
        "Most problems are best raised informally with your manager first. If that does not resolve "
        "it, send a written grievance to the people team.",
        "A meeting takes place within ten working days, and you may bring a colleague or union "
        "representative. You can appeal the decision within five working days."]),
    ("Performance reviews", [
        "Performance reviews take place twice a year, in April and October. Each review combines a "
        "self-review, feedback from three colleagues and your manager's assessment.",
        "Ratings are calibrated across teams. Promotions are decided in the October cycle only."]),
    ("Leaving the company", [
        "The notice period is one month during the first two years of service and two months after "
        "that; for senior managers it is three months.",
        "You will be offered an exit interview. Unused annual leave is paid with your final salary.",
        "References confirm your dates of employment and job title only."]),
]

assert len(HANDBOOK) == 40
