/**
 * The predefined XMP schemas a PDF/A-2/3 file may use without an extension schema (the XMP Specification
 * 2005 schemas plus the PDF/A ones), with each property's value type, and the structure types they use.
 * Written from the XMP 2005 specification's property tables (names and types are facts of that standard).
 *
 * Type notation: a simple type name (Text, Integer, Real, Boolean, Date, URI, URL, AgentName, ProperName,
 * MIMEType, Locale, RenditionClass, Rational, GPSCoordinate, XPath, GUID), "Lang Alt", "Bag X", "Seq X",
 * "Alt X", or a structure name from STRUCTS.
 */

export const NS_RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const NS_XML = 'http://www.w3.org/XML/1998/namespace';
export const NS_PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
export const NS_PDFA_EXT = 'http://www.aiim.org/pdfa/ns/extension/';
export const NS_PDFA_SCHEMA = 'http://www.aiim.org/pdfa/ns/schema#';
export const NS_PDFA_PROPERTY = 'http://www.aiim.org/pdfa/ns/property#';
export const NS_PDFA_TYPE = 'http://www.aiim.org/pdfa/ns/type#';
export const NS_PDFA_FIELD = 'http://www.aiim.org/pdfa/ns/field#';

function table(spec: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const part of spec.split(';')) {
    const s = part.trim();
    if (!s) continue;
    const i = s.indexOf(' ');
    m.set(s.slice(0, i), s.slice(i + 1).trim());
  }
  return m;
}

export interface SchemaDef {
  prefix: string;
  props: Map<string, string>;
}

/** Predefined schemas by namespace URI. */
export const PREDEFINED: Map<string, SchemaDef> = new Map([
  [
    'http://purl.org/dc/elements/1.1/',
    {
      prefix: 'dc',
      props: table(`contributor Bag ProperName; coverage Text; creator Seq ProperName; date Seq Date; description Lang Alt;
        format MIMEType; identifier Text; language Bag Locale; publisher Bag ProperName; relation Bag Text; rights Lang Alt;
        source Text; subject Bag Text; title Lang Alt; type Bag Text`),
    },
  ],
  [
    'http://ns.adobe.com/xap/1.0/',
    {
      prefix: 'xmp',
      props: table(`Advisory Bag XPath; BaseURL URL; CreateDate Date; CreatorTool AgentName; Identifier Bag Text; Label Text;
        MetadataDate Date; ModifyDate Date; Nickname Text; Rating Real; Thumbnails Alt Thumbnail`),
    },
  ],
  [
    'http://ns.adobe.com/xap/1.0/rights/',
    { prefix: 'xmpRights', props: table(`Certificate URL; Marked Boolean; Owner Bag ProperName; UsageTerms Lang Alt; WebStatement URL`) },
  ],
  [
    'http://ns.adobe.com/xap/1.0/mm/',
    {
      prefix: 'xmpMM',
      props: table(`DerivedFrom ResourceRef; DocumentID URI; History Seq ResourceEvent; InstanceID URI; ManagedFrom ResourceRef;
        Manager AgentName; ManageTo URI; ManageUI URI; ManagerVariant Text; RenditionClass RenditionClass; RenditionParams Text;
        VersionID Text; Versions Seq Version; LastURL URL; RenditionOf ResourceRef; SaveID Integer`),
    },
  ],
  ['http://ns.adobe.com/xap/1.0/bj/', { prefix: 'xmpBJ', props: table(`JobRef Bag Job`) }],
  [
    'http://ns.adobe.com/xap/1.0/t/pg/',
    {
      prefix: 'xmpTPg',
      props: table(`MaxPageSize Dimensions; NPages Integer; Fonts Bag Font; Colorants Seq Colorant; PlateNames Seq Text`),
    },
  ],
  [
    'http://ns.adobe.com/xmp/1.0/DynamicMedia/',
    {
      prefix: 'xmpDM',
      props: table(`absPeakAudioFilePath URI; album Text; altTapeName Text; altTimecode Timecode; artist Text; audioModDate Date;
        audioSampleRate Integer; audioSampleType Text; audioChannelType Text; audioCompressor Text; beatSpliceParams beatSpliceStretch;
        composer Text; contributedMedia Bag Media; copyright Text; duration Time; engineer Text; fileDataRate Rational; genre Text;
        instrument Text; introTime Time; key Text; logComment Text; loop Boolean; numberOfBeats Real; markers Seq Marker;
        metadataModDate Date; outCue Time; projectRef ProjectLink; pullDown Text; relativePeakAudioFilePath URI; relativeTimestamp Time;
        releaseDate Date; resampleParams resampleStretch; scaleType Text; scene Text; shotDate Date; shotLocation Text; shotName Text;
        speakerPlacement Text; startTimecode Timecode; stretchMode Text; tapeName Text; tempo Real; timeScaleParams timeScaleStretch;
        timeSignature Text; trackNumber Integer; videoAlphaMode Text; videoAlphaPremultipleColor Colorant;
        videoAlphaUnityIsTransparent Boolean; videoColorSpace Text; videoCompressor Text; videoFieldOrder Text; videoFrameRate Text;
        videoFrameSize Dimensions; videoModDate Date; videoPixelAspectRatio Rational; videoPixelDepth Text`),
    },
  ],
  ['http://ns.adobe.com/pdf/1.3/', { prefix: 'pdf', props: table(`Keywords Text; PDFVersion Text; Producer AgentName`) }],
  [
    'http://ns.adobe.com/photoshop/1.0/',
    {
      prefix: 'photoshop',
      props: table(`AuthorsPosition Text; CaptionWriter ProperName; Category Text; City Text; Country Text; Credit Text; DateCreated Date;
        Headline Text; Instructions Text; Source Text; State Text; SupplementalCategories Bag Text; TransmissionReference Text;
        Urgency Integer; ColorMode Integer; History Text; ICCProfile Text`),
    },
  ],
  [
    'http://ns.adobe.com/camera-raw-settings/1.0/',
    {
      prefix: 'crs',
      props: table(`AutoBrightness Boolean; AutoContrast Boolean; AutoExposure Boolean; AutoShadows Boolean; BlueHue Integer;
        BlueSaturation Integer; Brightness Integer; CameraProfile Text; ChromaticAberrationB Integer; ChromaticAberrationR Integer;
        ColorNoiseReduction Integer; Contrast Integer; CropTop Real; CropLeft Real; CropBottom Real; CropRight Real; CropAngle Real;
        CropWidth Real; CropHeight Real; CropUnits Integer; Exposure Real; GreenHue Integer; GreenSaturation Integer; HasCrop Boolean;
        HasSettings Boolean; LuminanceSmoothing Integer; RawFileName Text; RedHue Integer; RedSaturation Integer; Saturation Integer;
        Shadows Integer; ShadowTint Integer; Sharpness Integer; Temperature Integer; Tint Integer; ToneCurve Seq Text;
        ToneCurveName Text; Version Text; VignetteAmount Integer; VignetteMidpoint Integer; WhiteBalance Text`),
    },
  ],
  [
    'http://ns.adobe.com/tiff/1.0/',
    {
      prefix: 'tiff',
      props: table(`ImageWidth Integer; ImageLength Integer; BitsPerSample Seq Integer; Compression Integer;
        PhotometricInterpretation Integer; Orientation Integer; SamplesPerPixel Integer; PlanarConfiguration Integer;
        YCbCrSubSampling Seq Integer; YCbCrPositioning Integer; XResolution Rational; YResolution Rational; ResolutionUnit Integer;
        TransferFunction Seq Integer; WhitePoint Seq Rational; PrimaryChromaticities Seq Rational; YCbCrCoefficients Seq Rational;
        ReferenceBlackWhite Seq Rational; DateTime Date; ImageDescription Lang Alt; Make ProperName; Model ProperName;
        Software AgentName; Artist ProperName; Copyright Lang Alt`),
    },
  ],
  [
    'http://ns.adobe.com/exif/1.0/',
    {
      prefix: 'exif',
      props: table(`ExifVersion Text; FlashpixVersion Text; ColorSpace Integer; ComponentsConfiguration Seq Integer;
        CompressedBitsPerPixel Rational; PixelXDimension Integer; PixelYDimension Integer; UserComment Lang Alt; RelatedSoundFile Text;
        DateTimeOriginal Date; DateTimeDigitized Date; ExposureTime Rational; FNumber Rational; ExposureProgram Integer;
        SpectralSensitivity Text; ISOSpeedRatings Seq Integer; OECF OECF; ShutterSpeedValue Rational; ApertureValue Rational;
        BrightnessValue Rational; ExposureBiasValue Rational; MaxApertureValue Rational; SubjectDistance Rational; MeteringMode Integer;
        LightSource Integer; Flash Flash; FocalLength Rational; SubjectArea Seq Integer; FlashEnergy Rational;
        SpatialFrequencyResponse OECF; FocalPlaneXResolution Rational; FocalPlaneYResolution Rational;
        FocalPlaneResolutionUnit Integer; SubjectLocation Seq Integer; ExposureIndex Rational; SensingMethod Integer;
        FileSource Integer; SceneType Integer; CFAPattern CFAPattern; CustomRendered Integer; ExposureMode Integer;
        WhiteBalance Integer; DigitalZoomRatio Rational; FocalLengthIn35mmFilm Integer; SceneCaptureType Integer; GainControl Integer;
        Contrast Integer; Saturation Integer; Sharpness Integer; DeviceSettingDescription DeviceSettings; SubjectDistanceRange Integer;
        ImageUniqueID Text; GPSVersionID Text; GPSLatitude GPSCoordinate; GPSLongitude GPSCoordinate; GPSAltitudeRef Integer;
        GPSAltitude Rational; GPSTimeStamp Date; GPSSatellites Text; GPSStatus Text; GPSMeasureMode Text; GPSDOP Rational;
        GPSSpeedRef Text; GPSSpeed Rational; GPSTrackRef Text; GPSTrack Rational; GPSImgDirectionRef Text; GPSImgDirection Rational;
        GPSMapDatum Text; GPSDestLatitude GPSCoordinate; GPSDestLongitude GPSCoordinate; GPSDestBearingRef Text;
        GPSDestBearing Rational; GPSDestDistanceRef Text; GPSDestDistance Rational; GPSProcessingMethod Text;
        GPSAreaInformation Text; GPSDifferential Integer`),
    },
  ],
  ['http://ns.adobe.com/exif/1.0/aux/', { prefix: 'aux', props: table(`Lens Text; SerialNumber Text`) }],
  [NS_PDFAID, { prefix: 'pdfaid', props: table(`part Integer; conformance Text; amd Text; corr Text`) }],
]);

export interface StructDef {
  ns: string;
  fields: Map<string, string>;
}

const XMPDM = 'http://ns.adobe.com/xmp/1.0/DynamicMedia/';
const EXIF = 'http://ns.adobe.com/exif/1.0/';

/** Structure value types: the namespace of their fields and each field's type. */
export const STRUCTS: Map<string, StructDef> = new Map([
  [
    'ResourceRef',
    {
      ns: 'http://ns.adobe.com/xap/1.0/sType/ResourceRef#',
      fields: table(`instanceID URI; documentID URI; versionID Text; renditionClass RenditionClass; renditionParams Text;
        manager AgentName; managerVariant Text; manageTo URI; manageUI URI`),
    },
  ],
  [
    'ResourceEvent',
    {
      ns: 'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#',
      fields: table(`action Text; instanceID URI; parameters Text; softwareAgent AgentName; when Date`),
    },
  ],
  [
    'Version',
    {
      ns: 'http://ns.adobe.com/xap/1.0/sType/Version#',
      fields: table(`comments Text; event ResourceEvent; modifyDate Date; modifier ProperName; version Text`),
    },
  ],
  ['Job', { ns: 'http://ns.adobe.com/xap/1.0/sType/Job#', fields: table(`name Text; id Text; url URL`) }],
  ['Thumbnail', { ns: 'http://ns.adobe.com/xap/1.0/g/img/', fields: table(`height Integer; width Integer; format Text; image Text`) }],
  ['Dimensions', { ns: 'http://ns.adobe.com/xap/1.0/sType/Dimensions#', fields: table(`w Real; h Real; unit Text`) }],
  [
    'Font',
    {
      ns: 'http://ns.adobe.com/xap/1.0/sType/Font#',
      fields: table(`fontName Text; fontFamily Text; fontFace Text; fontType Text; versionString Text; composite Boolean;
        fontFileName Text; childFontFiles Seq Text`),
    },
  ],
  [
    'Colorant',
    {
      ns: 'http://ns.adobe.com/xap/1.0/g/',
      fields: table(`swatchName Text; mode Text; type Text; cyan Real; magenta Real; yellow Real; black Real; red Integer;
        green Integer; blue Integer; L Real; A Integer; B Integer`),
    },
  ],
  ['Media', { ns: XMPDM, fields: table(`path URI; track Text; startTime Time; duration Time; managed Boolean; webStatement URI`) }],
  ['Marker', { ns: XMPDM, fields: table(`startTime Text; duration Text; comment Text; name Text; location URI; target Text; type Text`) }],
  ['ProjectLink', { ns: XMPDM, fields: table(`type Text; path URI`) }],
  ['Time', { ns: XMPDM, fields: table(`value Integer; scale Rational`) }],
  ['Timecode', { ns: XMPDM, fields: table(`timeValue Text; timeFormat Text`) }],
  ['beatSpliceStretch', { ns: XMPDM, fields: table(`useFileBeatsMarker Boolean; riseInDecibel Real; riseInTimeDuration Time`) }],
  ['resampleStretch', { ns: XMPDM, fields: table(`quality Text`) }],
  ['timeScaleStretch', { ns: XMPDM, fields: table(`quality Text; frameSize Real; frameOverlappingPercentage Real`) }],
  ['Flash', { ns: EXIF, fields: table(`Fired Boolean; Return Integer; Mode Integer; Function Boolean; RedEyeMode Boolean`) }],
  ['OECF', { ns: EXIF, fields: table(`Columns Integer; Rows Integer; Names Seq Text; Values Seq Rational`) }],
  ['CFAPattern', { ns: EXIF, fields: table(`Columns Integer; Rows Integer; Values Seq Integer`) }],
  ['DeviceSettings', { ns: EXIF, fields: table(`Columns Integer; Rows Integer; Settings Seq Text`) }],
]);

/** Simple types that are text with a lexical form we check. */
export const SIMPLE_TYPES = new Set([
  'Text',
  'Integer',
  'Real',
  'Boolean',
  'Date',
  'URI',
  'URL',
  'AgentName',
  'ProperName',
  'MIMEType',
  'Locale',
  'RenditionClass',
  'Rational',
  'GPSCoordinate',
  'XPath',
  'GUID',
  'Lang Alt',
]);

const DATE_RE = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

/** Whether a simple value has the lexical form of its type. */
export function simpleValueOk(type: string, v: string): boolean {
  const t = v.trim();
  switch (type) {
    case 'Integer':
      return /^[+-]?\d+$/.test(t);
    case 'Real':
      return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(t);
    case 'Boolean':
      return t === 'True' || t === 'False';
    case 'Date':
      return DATE_RE.test(t);
    case 'Rational':
      return /^[+-]?\d+\/[+-]?\d+$/.test(t);
    case 'GPSCoordinate':
      return /^\d{1,3},\d{1,2}(,\d{1,2}|\.\d+)[NSEW]$/.test(t);
    default:
      return true;
  }
}
