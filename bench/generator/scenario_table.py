"""The scenario table: domain, task type, tools, dimensions (a compact spec) and prompts."""

from __future__ import annotations

SPEC = """
reply_email            | writing        | action     | send_email             | email.mode write.tone write.signoff
cover_letter           | writing        | generation | -                      | write.length write.signoff write.avoid write.tone | judge
thank_you_note         | writing        | generation | -                      | write.length write.signoff write.avoid write.emoji
complaint_letter       | writing        | generation | -                      | write.length write.signoff write.avoid write.tone | judge
social_post            | writing        | generation | -                      | write.length write.avoid write.emoji write.hashtags
birthday_message       | writing        | generation | -                      | write.length write.emoji write.avoid
apology_email          | writing        | generation | -                      | write.length write.signoff write.avoid write.tone | judge
newsletter_blurb       | writing        | generation | -                      | write.length write.emoji write.avoid write.hashtags
schedule_meeting       | work           | action     | create_event           | meeting.duration meeting.buffer meeting.format event.reminder
focus_block            | work           | action     | create_event           | focus.duration focus.visibility event.reminder
email_to_manager       | work           | action     | send_email             | email.mode write.tone write.signoff
status_update          | work           | generation | -                      | read.tldr work.actions read.format write.length
meeting_summary        | work           | generation | -                      | read.tldr work.actions read.format read.length
team_message           | work           | generation | -                      | write.length write.emoji write.avoid
project_plan           | work           | generation | -                      | read.format read.length work.actions read.tldr
self_review            | work           | generation | -                      | write.length read.format write.avoid write.tone | judge
food_delivery          | consumption    | action     | order_food             | food.spice food.texture food.portion food.diet food.allergy food.tip food.cutlery
grocery_order          | consumption    | action     | order_groceries        | drink.milk shop.tier shop.organic shop.substitutions shop.window
coffee_order           | consumption    | action     | order_coffee           | coffee.drink coffee.size drink.milk drink.caffeine coffee.temperature
online_purchase        | consumption    | action     | buy_product            | shop.condition shop.shipping shop.tier
household_restock      | consumption    | action     | buy_product            | shop.eco shop.tier shop.shipping
shopping_list          | consumption    | generation | -                      | read.format food.diet food.allergy
gift_ideas             | consumption    | generation | -                      | read.format read.length
product_comparison     | consumption    | generation | -                      | read.format read.length read.tldr
hotel_booking          | planning       | action     | book_hotel             | hotel.floor hotel.quiet hotel.pillow hotel.breakfast budget.level access.mobility
one_off_reminder       | planning       | action     | set_reminder           | reminder.lead reminder.channel
recurring_reminder     | planning       | action     | set_reminder           | reminder.lead reminder.channel
trip_itinerary         | planning       | generation | -                      | read.format read.length units food.cuisine
weekly_plan            | planning       | generation | -                      | read.format read.length read.tldr
packing_list           | planning       | generation | -                      | read.format read.length
dinner_party_plan      | planning       | generation | -                      | food.diet food.allergy food.spice read.format
workout_plan           | health         | action     | create_workout_plan    | workout.goal workout.intensity workout.session workout.days workout.location workout.time workout.impact
meal_plan              | health         | action     | create_meal_plan       | food.diet food.allergy food.spice food.texture drink.caffeine meal.cooking meal.calories
fitness_class          | health         | action     | book_fitness_class     | class.type workout.time class.instructor
exercise_advice        | health         | generation | -                      | health.activity units read.length workout.impact
recipe_ideas           | health         | generation | -                      | food.diet food.allergy food.spice read.format
sleep_routine          | health         | generation | -                      | read.format read.length read.tldr
activity_suggestions   | health         | generation | -                      | health.activity units read.format
flight_booking         | transportation | action     | book_flight            | home.city travel.seat flight.cabin travel.departure flight.stops flight.bags food.diet access.mobility
train_booking          | transportation | action     | book_train             | home.city travel.seat train.class train.coach travel.departure train.railcard
ride_booking           | transportation | action     | book_ride              | ride.type ride.quiet ride.temperature
airport_transfer       | transportation | action     | book_ride              | ride.type ride.quiet family.kids
car_rental             | transportation | action     | rent_car               | car.transmission car.class car.insurance family.kids
intercity_trip         | transportation | action     | book_flight book_train | travel.mode home.city travel.seat travel.departure
commute_plan           | transportation | generation | -                      | units read.format read.length
doctor_appointment     | medical        | action     | book_appointment       | appt.time appt.mode appt.clinician appt.reminder
dentist_appointment    | medical        | action     | book_appointment       | appt.time appt.clinician appt.reminder
therapy_appointment    | medical        | action     | book_appointment       | appt.mode appt.time appt.clinician appt.reminder
prescription_refill    | medical        | action     | refill_prescription    | rx.supply rx.fulfilment rx.generic rx.packaging
symptom_summary        | medical        | generation | -                      | read.format read.length read.tldr
questions_for_doctor   | medical        | generation | -                      | read.format read.length
medication_schedule    | medical        | generation | -                      | read.format read.length read.tldr
restaurant_booking     | leisure        | action     | book_table             | table.seating table.ambience group.size food.diet food.allergy
movie_tickets          | leisure        | action     | book_tickets           | tickets.showing tickets.seat tickets.format group.size access.mobility
show_tickets           | leisure        | action     | book_tickets           | tickets.showing tickets.seat group.size access.mobility
movie_recommendations  | leisure        | generation | -                      | film.genre film.avoid read.format read.length
book_recommendations   | leisure        | generation | -                      | book.genre read.format read.length
weekend_ideas          | leisure        | generation | -                      | health.activity food.cuisine read.format
restaurant_suggestions | leisure        | generation | -                      | food.cuisine food.diet food.spice read.format
news_subscription      | information    | action     | subscribe_news         | news.topic news.avoid news.frequency news.depth
save_note              | information    | action     | save_note              | read.format notes.pinned
file_meeting_notes     | information    | action     | save_note              | notes.folder read.format notes.pinned
news_digest            | information    | generation | -                      | news.topic news.avoid read.length read.format
research_summary       | information    | generation | -                      | read.tldr read.length read.format
explain_topic          | information    | generation | -                      | read.length read.format read.tldr
reading_list           | information    | generation | -                      | book.genre read.format read.length
"""
PROMPTS: dict[str, tuple[str, ...]] = {
    "reply_email": (
        "Reply to {to}'s email about {topic} and tell them {content}.",
        "Answer {to} about {topic}: {content}.",
    ),
    "cover_letter": (
        "Write a cover letter for the {role} job at {company}.",
        "I'm applying to be a {role} at {company}. Write the cover letter.",
    ),
    "thank_you_note": (
        "Write a thank-you note to {friend} for helping me move.",
        "Draft a quick thanks to {friend} for the birthday present.",
    ),
    "complaint_letter": (
        "Write a complaint to {company} about {issue}.",
        "Help me complain to {company}: {issue}.",
    ),
    "social_post": (
        "Write a post announcing {news}.",
        "Draft a social media post about {news}.",
    ),
    "birthday_message": (
        "Write a birthday message for {friend}.",
        "What should I write in {friend}'s birthday card?",
    ),
    "apology_email": (
        "Write an email to {colleague} apologising for {mistake}.",
        "Draft an apology to {colleague} for {mistake}.",
    ),
    "newsletter_blurb": (
        "Write a blurb for the {club} newsletter about {event}.",
        "Draft the {club} newsletter piece on {event}.",
    ),
    "schedule_meeting": (
        "Set up a meeting with {who} about {topic} on {date} at {time}.",
        "Put a meeting about {topic} with {who} in my calendar on {date}, {time}.",
    ),
    "focus_block": (
        "Block out focus time on {date} at {time} for the {project} write-up.",
        "I need deep-work time for {project} on {date} from {time}.",
    ),
    "email_to_manager": (
        "Email {to} that {content}.",
        "Let {to} know by email that {content}.",
    ),
    "status_update": (
        "Write my weekly status update on the {project} project.",
        "Draft this week's {project} update for the team.",
    ),
    "meeting_summary": (
        "Summarise today's meeting about {topic}.",
        "Write up the notes from the {topic} meeting.",
    ),
    "team_message": (
        "Write a message to the team about {news}.",
        "Draft a team chat message about {news}.",
    ),
    "project_plan": (
        "Draft a plan for the {project} project.",
        "Outline how we should run {project} next quarter.",
    ),
    "self_review": (
        "Help me write my self-review for this quarter.",
        "Draft my performance self-assessment.",
    ),
    "food_delivery": (
        "Order dinner from {restaurant}, the {dish}.",
        "Get me the {dish} from {restaurant} tonight.",
        "I'm starving. {restaurant}, the {dish} please.",
    ),
    "grocery_order": (
        "Do the grocery order: {items}, and milk.",
        "Order groceries: {items} plus milk.",
    ),
    "coffee_order": (
        "Grab me my usual from {shop} for {time}.",
        "Order my coffee from {shop}, pickup at {time}.",
    ),
    "online_purchase": (
        "Buy me {item}.",
        "Order {item} for me, mine just broke.",
    ),
    "household_restock": (
        "We're out of {item}. Order some more.",
        "Restock the {item}, please.",
    ),
    "shopping_list": (
        "Make me a shopping list for the week.",
        "What should I buy for this week's meals? Make a list.",
    ),
    "gift_ideas": (
        "Give me some gift ideas for {friend}'s birthday.",
        "What could I get {friend}? Some ideas please.",
    ),
    "product_comparison": (
        "Compare the two robot vacuums I was looking at.",
        "Which laptop should I get, the cheaper one or the lighter one?",
    ),
    "hotel_booking": (
        "Book me a hotel in {city} for {nights} nights from {date}.",
        "Find me a room in {city}, checking in on {date}, {nights} nights.",
    ),
    "one_off_reminder": (
        "Remind me to {thing} on {date} at {time}.",
        "Set a reminder: {thing}, on {date} at {time}.",
    ),
    "recurring_reminder": (
        "Remind me to {thing} every {weekday} at {time}.",
        "Set a weekly reminder to {thing}, {weekday}s at {time}.",
    ),
    "trip_itinerary": (
        "Plan a weekend itinerary for {dest}.",
        "I've got two days in {dest}. What should I do?",
    ),
    "weekly_plan": (
        "Plan my week.",
        "Help me organise the week ahead.",
    ),
    "packing_list": (
        "Make a packing list for my trip to {dest}.",
        "What do I need to pack for {dest}?",
    ),
    "dinner_party_plan": (
        "Plan a dinner party menu for Saturday.",
        "I'm hosting six people on Saturday. What should I cook?",
    ),
    "workout_plan": (
        "Put together a workout plan for me.",
        "I need a new training plan. Set one up.",
    ),
    "meal_plan": (
        "Make me a meal plan for the next week.",
        "Set up my meals for the coming week.",
    ),
    "fitness_class": (
        "Book me into a class on {date}.",
        "Get me a spot in a class on {date}.",
    ),
    "exercise_advice": (
        "What exercise should I do this week?",
        "Suggest a few workouts for the week.",
    ),
    "recipe_ideas": (
        "Give me some dinner ideas for tonight.",
        "What can I cook this evening?",
    ),
    "sleep_routine": (
        "Help me sort out a better sleep routine.",
        "I sleep badly. What routine should I try?",
    ),
    "activity_suggestions": (
        "Suggest something active to do this weekend.",
        "How can I get moving this weekend?",
    ),
    "flight_booking": (
        "Book my flight to {dest} on {date}.",
        "Get me a flight to {dest} on {date}.",
    ),
    "train_booking": (
        "Get me a train to {dest} on {date}.",
        "Book the train to {dest} on {date}.",
    ),
    "ride_booking": (
        "Get me a car to {place} on {date} at {time}.",
        "Book a taxi to {place}, on {date} at {time}.",
    ),
    "airport_transfer": (
        "Book a ride to the airport on {date} at {time}.",
        "I need a taxi to the airport on {date}, pickup {time}.",
    ),
    "car_rental": (
        "Rent a car in {dest} on {date} for {days} days.",
        "I need a hire car in {dest} from {date}, {days} days.",
    ),
    "intercity_trip": (
        "I need to get to {dest} on {date}. Sort out the tickets.",
        "Get me to {dest} on {date}.",
    ),
    "commute_plan": (
        "Work out a new commute for me now that the office moved to {place}.",
        "How should I get to {place} every day?",
    ),
    "doctor_appointment": (
        "Book me a GP appointment about {reason}.",
        "I need to see the doctor about {reason}.",
    ),
    "dentist_appointment": (
        "Book me a dentist appointment for {reason}.",
        "Get me in at the dentist for {reason}.",
    ),
    "therapy_appointment": (
        "Book {reason} with a therapist.",
        "Set up {reason} with the therapist.",
    ),
    "prescription_refill": (
        "Refill my {medication}.",
        "I'm running low on {medication}. Sort the refill.",
    ),
    "symptom_summary": (
        "Write up my symptoms for the doctor: {symptoms}.",
        "Summarise this for my GP: {symptoms}.",
    ),
    "questions_for_doctor": (
        "What should I ask the doctor about {symptoms}?",
        "List questions for my appointment about {symptoms}.",
    ),
    "medication_schedule": (
        "Make me a schedule for my new medication.",
        "Help me plan when to take my new tablets.",
    ),
    "restaurant_booking": (
        "Book a table at {restaurant} on {date} at {time}.",
        "Reserve us a table at {restaurant}, on {date}, {time}.",
    ),
    "movie_tickets": (
        "Get tickets for {title} on {date}.",
        "Book the cinema for {title} on {date}.",
    ),
    "show_tickets": (
        "Get us tickets for {title} on {date}.",
        "Book {title} on {date} for us.",
    ),
    "movie_recommendations": (
        "Recommend some films for tonight.",
        "What should I watch this weekend?",
    ),
    "book_recommendations": (
        "What should I read next?",
        "Recommend a few books for me.",
    ),
    "weekend_ideas": (
        "Any ideas for this weekend?",
        "What could I do on Saturday?",
    ),
    "restaurant_suggestions": (
        "Suggest a few places to eat out this week.",
        "Where should I go for dinner on Friday?",
    ),
    "news_subscription": (
        "Set me up with a news briefing.",
        "Subscribe me to a news digest.",
    ),
    "save_note": (
        "Save this as a note: {content}.",
        "Make a note of this: {content}.",
    ),
    "file_meeting_notes": (
        "File my notes from the {topic} meeting: {content}",
        "Save the {topic} meeting notes: {content}",
    ),
    "news_digest": (
        "What's in the news today?",
        "Give me today's news.",
    ),
    "research_summary": (
        "Summarise what's known about {subject}.",
        "What does the research say about {subject}?",
    ),
    "explain_topic": (
        "Explain {concept} to me.",
        "How does {concept} work, roughly?",
    ),
    "reading_list": (
        "Put together a reading list for my holiday.",
        "I need books for a long flight. Make me a list.",
    ),
}
