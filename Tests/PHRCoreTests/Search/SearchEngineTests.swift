import Foundation
import GRDB
import Testing
@testable import PHRCore

/// The query language and ranking on a fixed corpus, with exact expected orders.
@Suite struct SearchEngineTests {
    /// A vault with a small, fixed corpus in the default profile and one record in a second one.
    static func corpus() throws -> (Vault, Profile, String) {
        let (vault, _, directory) = try TestSupport.makeVault("search")
        let profile = try vault.database.write { db -> Profile in
            let me = try Profiles.resolve(db, name: nil)
            let other = try Profiles.create(db, name: "mia", relation: .child)
            func add(_ kind: String, _ id: String, _ entries: [SearchIndex.Entry], profile: Profile = me) throws {
                try SearchIndex.replace(db, kind: kind, recordID: id, profileID: profile.id, entries: entries)
            }
            // Ranking by column: the word in a title, in tags, in a body.
            try add("doc", "title1", [.init(page: 1, title: "Ferritin results", body: "Iron studies were done.", type: "lab", date: "2024-05-01")])
            try add("doc", "tags01", [.init(page: 1, title: "Blood panel", tags: ["ferritin"], body: "Complete blood count.", type: "lab", date: "2024-05-02")])
            try add("doc", "body01", [.init(page: 1, title: "Clinic letter", body: "We measured ferritin last week; ferritin was low.", type: "visit", date: "2024-05-03")])
            // Phrases, prefixes and OR.
            try add("doc", "phrase", [.init(page: 1, title: "Haematology", body: "Diagnosis: iron deficiency anaemia.", type: "lab", date: "2025-01-10")])
            try add("doc", "revers", [.init(page: 1, title: "Dietitian note", body: "A deficiency of iron in the diet.", type: "visit", date: "2025-01-11")])
            try add("med", "amoxi1", [.init(title: "Amoxicillin 500 mg", body: "Take three times a day", type: "active", date: "2025-02-01")])
            try add("med", "amoxa1", [.init(title: "Amoxapine 25 mg", body: "At night", type: "active", date: "2025-02-02")])
            try add("med", "metfo1", [.init(title: "Metformin 850 mg", body: "With meals", type: "active", date: "2025-02-03")])
            try add("med", "insul1", [.init(title: "Insulin glargine", body: "10 units at bedtime", type: "active", date: "2025-02-04")])
            // Exclusion, tags, dates, multi-page documents.
            try add("doc", "draft1", [.init(page: 1, title: "Vitamin D draft", tags: ["draft"], body: "Vitamin D 25-OH level", type: "lab", date: "2023-06-01")])
            try add("doc", "final1", [.init(page: 1, title: "Vitamin D final", tags: ["insurance"], body: "Vitamin D 25-OH level", type: "lab", date: "2023-06-02")])
            try add("doc", "pages3", [
                .init(page: 1, title: "Discharge summary", body: "Admitted with pneumonia.", type: "discharge", date: "2025-03-01"),
                .init(page: 2, title: "Discharge summary", body: "Chest x-ray showed pneumonia resolving.", type: "discharge", date: "2025-03-01"),
                .init(page: 3, title: "Discharge summary", body: "Follow up with the GP.", type: "discharge", date: "2025-03-01"),
            ])
            // Recency breaks ties between equally good matches.
            try add("doc", "older1", [.init(page: 1, title: "Thyroid panel", body: "TSH normal", type: "lab", date: "2022-01-01")])
            try add("doc", "newer1", [.init(page: 1, title: "Thyroid panel", body: "TSH normal", type: "lab", date: "2024-01-01")])
            // Accents, codes, scripts without spaces.
            try add("med", "levo01", [.init(title: "Lévothyrox 75 µg", body: "Avant le petit-déjeuner", type: "active", date: "2021-01-01")])
            try add("doc", "code01", [.init(page: 1, title: "Claim", body: "Reference A-1312/B for the claim.", type: "bill", date: "2021-02-01")])
            try add("doc", "cjk001", [.init(page: 1, title: "診断書", body: "東京都立病院で血液検査を受けました。", type: "visit", date: "2021-03-01")])
            try add("doc", "thai01", [.init(page: 1, title: "ใบรับรองแพทย์", body: "ผู้ป่วยได้รับการตรวจเลือดที่โรงพยาบาล", type: "visit", date: "2021-04-01")])
            // A typo in a document, and the same word spelled right in several others.
            try add("doc", "typo01", [.init(page: 1, title: "Scan notes", body: "paracetamol ferritn check", type: "visit", date: "2020-01-01")])
            // Another profile's record must never show up.
            try add("doc", "mia001", [.init(page: 1, title: "Ferritin for Mia", body: "ferritin metformin", type: "lab", date: "2025-05-05")], profile: other)
            return me
        }
        return (vault, profile, directory)
    }

    static func ids(_ results: SearchResults) -> [String] { results.hits.map(\.id) }

    @Test func titlesOutrankTagsOutrankBodies() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        let results = try engine.search("ferritin")
        #expect(Self.ids(results) == ["title1", "tags01", "body01"])
        #expect(results.hits.allSatisfy { !$0.fuzzy })
        #expect(results.didYouMean == nil)
    }

    @Test func phrasesPrefixesOrAndExclusion() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        #expect(Self.ids(try engine.search("\"iron deficiency\"")) == ["phrase"])
        #expect(Set(Self.ids(try engine.search("iron deficiency"))) == ["phrase", "revers"])
        #expect(Set(Self.ids(try engine.search("amox*"))) == ["amoxi1", "amoxa1"])
        #expect(Set(Self.ids(try engine.search("metformin OR insulin"))) == ["metfo1", "insul1"])
        #expect(Self.ids(try engine.search("vitamin -draft")) == ["final1"])
        #expect(Self.ids(try engine.search("vitamin -\"vitamin d draft\"")) == ["final1"])
        #expect(Self.ids(try engine.search("pneumonia OR insulin glargine")) == ["insul1"], "OR binds tighter than AND")
    }

    @Test func filtersInTheQueryAndAsOptions() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        #expect(Self.ids(try engine.search("ferritin type:visit")) == ["body01"])
        #expect(Self.ids(try engine.search("vitamin tag:insurance")) == ["final1"])
        #expect(Set(Self.ids(try engine.search("mg kind:med"))) == ["amoxi1", "amoxa1", "metfo1"])
        #expect(Self.ids(try engine.search("ferritin after:2024-05-02")) == ["tags01", "body01"])
        #expect(Self.ids(try engine.search("ferritin before:2024-05-02")) == ["title1"])
        let refined = try engine.search("ferritin") { query in
            try query.addFilter(.since, "2024-05-02")
            try query.addFilter(.until, "2024-05-02")
        }
        #expect(Self.ids(refined) == ["tags01"])
    }

    @Test func documentHitsNameTheirPages() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let hits = try SearchEngine(vault: vault, profile: profile).search("pneumonia").hits
        #expect(hits.count == 1)
        #expect(hits[0].pages == [1, 2])
        #expect(hits[0].page == 1 || hits[0].page == 2)
        #expect(try SearchEngine(vault: vault, profile: profile).search("GP").hits.first?.page == 3)
    }

    @Test func recencyBreaksTies() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        #expect(Self.ids(try SearchEngine(vault: vault, profile: profile).search("thyroid")) == ["newer1", "older1"])
    }

    @Test func accentsCaseAndCodes() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        #expect(Self.ids(try engine.search("levothyrox")) == ["levo01"])
        #expect(Self.ids(try engine.search("LÉVOTHYROX")) == ["levo01"])
        #expect(Self.ids(try engine.search("dejeuner")) == ["levo01"])
        #expect(Self.ids(try engine.search("1312")) == ["code01"])
        #expect(Self.ids(try engine.search("A-1312/B")) == ["code01"])
    }

    @Test func chineseJapaneseAndThaiAreFoundBySubstring() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        #expect(Self.ids(try engine.search("病院")) == ["cjk001"], "two characters: scanned")
        #expect(Self.ids(try engine.search("血液検査")) == ["cjk001"], "four characters: trigram index")
        #expect(Self.ids(try engine.search("診断")) == ["cjk001"], "in the title")
        #expect(Self.ids(try engine.search("โรงพยาบาล")) == ["thai01"])
        let hit = try #require(try engine.search("血液検査").hits.first)
        let scalars = Array(hit.snippet.unicodeScalars)
        let match = try #require(hit.matches.first)
        #expect(String(String.UnicodeScalarView(scalars[match[0]..<(match[0] + match[1])])) == "血液検査")
        #expect(Self.ids(try engine.search("病院 -血液")) == [])
    }

    @Test func typosFindTheirCorrectionBelowExactMatches() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        let misspelled = try engine.search("metfromin")
        #expect(Self.ids(misspelled) == ["metfo1"])
        #expect(misspelled.hits[0].fuzzy)
        #expect(misspelled.didYouMean == "metformin")
        #expect(misspelled.corrections == ["metfromin": ["metformin"]])
        // "ferritn" is in one document as typed: that exact match comes first, corrections after.
        let rare = try engine.search("ferritn")
        #expect(Self.ids(rare) == ["typo01", "title1", "tags01", "body01"])
        #expect(rare.hits.map(\.fuzzy) == [false, true, true, true])
        #expect(rare.didYouMean == nil)
        #expect(try engine.search("amoxicilin").didYouMean == "amoxicillin")
        // Slips in the first letter: wrong, missing, extra, swapped.
        for slip in ["netformin", "etformin", "ametformin", "emtformin"] {
            #expect(try engine.search(slip).didYouMean == "metformin", "\(slip)")
        }
        #expect(Self.ids(try engine.search("xyzzyplugh")) == [])
        #expect(try engine.search("xyzzyplugh").didYouMean == nil)
    }

    @Test func anotherProfilesRecordsNeverAppear() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        #expect(!Self.ids(try SearchEngine(vault: vault, profile: profile).search("mia")).contains("mia001"))
        let mia = try vault.database.read { try Profiles.resolve($0, name: "MIA") }
        #expect(Self.ids(try SearchEngine(vault: vault, profile: mia).search("ferritin")) == ["mia001"])
    }

    @Test func snippetsMarkTheMatchedWords() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let hit = try #require(try SearchEngine(vault: vault, profile: profile).search("measured").hits.first)
        #expect(hit.snippet == "We measured ferritin last week; ferritin was low.")
        #expect(hit.matches == [[3, 8]])
    }

    @Test func substringSnippetsMarkTheFirstMatchAndKeepMarksWithTheirLetters() {
        let body = "患者は\n血液検査を受けました。" + String(repeating: "あ", count: 60)
        let snippet = SearchEngine.substringSnippet(body, terms: ["検査"])
        #expect(snippet == "患者は 血液\u{2}検査\u{3}を受けました。" + String(repeating: "あ", count: 41) + "…")
        // Case is ignored as the trigram index ignores it; the later term in the list loses.
        #expect(SearchEngine.substringSnippet("Die COVID-19ワクチン", terms: ["ワクチン", "covid-19ワ"]) == "Die COVID-19\u{2}ワクチン\u{3}")
        #expect(SearchEngine.substringSnippet("Die COVID-19ワクチン", terms: ["covid-19ワ"]) == "Die \u{2}COVID-19ワ\u{3}クチン")
        // 24 code points before the match would start on the tone mark of "ก้": the letter comes too.
        let thai = "ก้" + String(repeating: "ข", count: 23) + "โรงพยาบาล"
        #expect(SearchEngine.substringSnippet(thai, terms: ["โรงพยาบาล"]) == "ก้" + String(repeating: "ข", count: 23) + "\u{2}โรงพยาบาล\u{3}")
        let unmatched = String(repeating: "ข", count: 79) + "ก้ขข"
        #expect(SearchEngine.substringSnippet(unmatched, terms: ["ไม่มี"]) == String(repeating: "ข", count: 79) + "ก้")
    }

    @Test func snippetTextIsOneLineWithMatchesInCodePoints() {
        // Line breaks, tabs, no-break and ideographic spaces become single spaces; none at the ends.
        let (text, matches) = SearchEngine.unmark("\n  Le \u{2}Lévothyrox\u{3}\u{A0}\u{A0}75 µg\r\n\u{2}血液\u{3}\u{3000}検査\t ")
        #expect(text == "Le Lévothyrox 75 µg 血液 検査")
        #expect(matches == [[3, 10], [20, 2]])
        let scalars = Array(text.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[20..<22])) == "血液")
        #expect(SearchEngine.unmark("").0 == "")
        #expect(SearchEngine.unmark(" \u{2}\u{3} ") == ("", []))
    }

    @Test(arguments: [
        ("\"iron deficiency", "search: a quote is not closed: add the closing \" after the phrase"),
        ("OR ferritin", "search: OR needs a word on each side, like 'metformin OR insulin'"),
        ("ferritin OR", "search: OR needs a word on each side, like 'metformin OR insulin'"),
        ("ferritin after:yesterday", "search: after:yesterday is not a date; use YYYY-MM-DD, like after:2025-01-31"),
        ("kind:spaceship ferritin", "search: kind:spaceship is not a record kind; use one of doc, med, appt, contact, condition, allergy, immunization, procedure, family, observation, profile, log"),
        ("-draft", "search: give at least one word to look for (exclusions and filters alone are not a query)"),
        ("type:lab", "search: give at least one word to look for (exclusions and filters alone are not a query)"),
        ("\"\"", "search: a quoted phrase is empty"),
    ])
    func badQueriesGetAClearMessage(query: String, message: String) throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        #expect {
            try SearchEngine(vault: vault, profile: profile).search(query)
        } throws: { error in
            (error as? SearchError)?.errorDescription == message
        }
    }

    @Test func queryTextNeverReachesFTS5AsSyntax() throws {
        let (vault, profile, directory) = try Self.corpus()
        defer { TestSupport.remove(directory) }
        let engine = SearchEngine(vault: vault, profile: profile)
        // Either results or a SearchError; never SQLite's "fts5: syntax error".
        for hostile in ["NEAR(ferritin iron)", "ferritin AND", "title:ferritin", "{title} : ferritin", "ferritin ^ iron",
                        "\"a\"\"b\"", "* ferritin", "(ferritin", "ferritin)", "AND OR NOT", "ferritin NOT", "col:x:y"] {
            do {
                _ = try engine.search(hostile)
            } catch is SearchError {
            }
        }
        #expect(Self.ids(try engine.search("(ferritin iron)")) == ["title1"], "parentheses are ignored")
        #expect(Self.ids(try engine.search("NEAR(ferritin iron)")) == [], "NEAR is just a word here")
    }
}
